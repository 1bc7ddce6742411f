"""Flamecraft as a PettingZoo AEC environment: one agent per seat, turns as the engine says.

Why AEC: Flamecraft is strictly turn-based, and the seat to act is not always the seat whose
turn it is (gifts, setup choices), so the engine's ``to_act`` picks ``agent_selection``.

Each observation is ``{"observation": float32 vector, "action_mask": int8 vector}``: the
vector is ``encoding.observation`` (only what the seat may see) and the mask marks the legal
indices of the fixed ``encoding`` catalogue (all zero for a seat that is not acting). Rewards
come at the end only: ``reward="win"`` (+1 win, -1 loss) or ``reward="margin"`` (Reputation
lead over the best other seat). ``players=1`` is a solo game (design §7: one agent, whose
"win" is reaching the Flamekeeper rating, ``encoding.final_rewards``); ``companions=True``
adds the Companion module (design §6). A game still going after ``max_cycles`` cycles
(every seat acted once, as PettingZoo counts them) or ``max_decisions`` decisions is cut:
every agent is truncated, with reward 0, the one outcome of a cut game in every interface.
``state()`` is the privileged full state for a centralized critic (``state_vector``). There
is no ``parallel_env``: PettingZoo's AEC-to-parallel conversion needs every agent to act once
per cycle, and a Flamecraft seat takes many decisions in a row. The environment deep-copies
and pickles (both forms of the core), for search and worker processes. See docs/rl.md.

    from flamecraft.envs import flamecraft_v2
    env = flamecraft_v2.env(players=3, seed=7, companions=True)
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers
from pettingzoo.utils.env_logger import EnvLogger

from ..core.actions import Action
from ..core.board import CATALOG
from ..core.engine import apply_in_place, start, to_act
from ..core.errors import GameOverError, IllegalActionError
from ..core.state import GameState
from ..core.view import view
from ..display.render import render
from .cut import DEFAULT_MAX_CYCLES, DEFAULT_MAX_DECISIONS, Cut
from .encoding import (
    ENCODING_VERSION,
    ENV_VERSION,
    MAX_PLAYERS,
    MIN_PLAYERS,
    catalogue,
    check_reward_mode,
    final_rewards,
    layout,
)
from .observation import CutGame, observation_array
from .state_vector import state_array, state_size

ObsDict = dict[str, np.ndarray]


def env(**kwargs: Any) -> Any:
    """The environment as PettingZoo's classic games behave: an illegal action ends the game
    with reward -1 for its seat, an index out of the action space is an AssertionError, and
    calls out of order raise. The first two are built into the environment
    (``illegal_reward``) rather than PettingZoo's TerminateIllegalWrapper and
    AssertOutOfBoundsWrapper, with the same effect: each wrapper layer forwards every
    attribute through ``__getattr__``, which cost a third of a step (docs/rl.md). The third
    is PettingZoo's OrderEnforcingWrapper, in ``OrderEnforcing``'s cheaper form."""
    kwargs.setdefault("illegal_reward", -1.0)
    return OrderEnforcing(raw_env(**kwargs))


def _forward(name: str) -> property:
    """A read-only attribute of the wrapped environment, after ``reset()`` only (before, the
    lookup falls through to OrderEnforcingWrapper's ``__getattr__``, which raises its own
    AttributeError)."""
    def get(self: OrderEnforcing) -> Any:
        if not self._has_reset:
            raise AttributeError(name)
        return getattr(self.env, name)
    return property(get, doc=f"the wrapped environment's ``{name}``")


class OrderEnforcing(wrappers.OrderEnforcingWrapper):  # type: ignore[misc]
    """PettingZoo's OrderEnforcingWrapper, same checks, without its cost on the hot path.

    Why: the wrapper reaches every attribute of the environment through a failed lookup and
    ``__getattr__`` (a set test, a ``startswith``, a ``getattr``); the AEC loop (``agent_iter``,
    ``last()``, ``step``) reads eight of them a step, about a tenth of a step here. These few
    are forwarded by properties instead, and ``last()`` is asked of the environment directly
    once ``reset()`` was called. Everything else, errors before ``reset()`` included, is the
    base class's."""

    agents = _forward("agents")
    agent_selection = _forward("agent_selection")
    terminations = _forward("terminations")
    truncations = _forward("truncations")
    infos = _forward("infos")
    rewards = _forward("rewards")

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        if not self._has_reset:  # the base class's errors
            last: tuple[Any, float, bool, bool, dict[str, Any]] = super().last(observe)
            return last
        last = self.env.last(observe)
        return last

    def __str__(self) -> str:
        return str(self.env)  # as the base class prints itself: the environment's name


class raw_env(CutGame, AECEnv):  # type: ignore[misc]
    """The unwrapped AEC environment. An illegal action raises IllegalActionError, unless
    ``illegal_reward`` is given: then, as PettingZoo's TerminateIllegalWrapper does, it ends
    the game for everyone with that reward for its seat (and 0 for the others), and an index
    out of the action space is an AssertionError, as with AssertOutOfBoundsWrapper."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["human", "ansi"], "name": "flamecraft_v2", "is_parallelizable": False,
        "encoding_version": ENCODING_VERSION,  # the catalogue's and observation's
        "env_version": ENV_VERSION}  # the environment's, the name's _v2 (docs/rl.md)

    def __init__(self, players: int = 2, deck: str = "purple", seed: int | None = None,
                 reward: str = "win", render_mode: str | None = None,
                 companions: bool = False, max_cycles: int = DEFAULT_MAX_CYCLES,
                 illegal_reward: float | None = None,
                 max_decisions: int = DEFAULT_MAX_DECISIONS, variant: Any = None):
        super().__init__()
        from ..core.variant import variant_of

        self.variant = variant_of(variant)  # a research variant (core/variant.py) or the rules
        self.illegal_reward = illegal_reward
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise ValueError(f"players must be {MIN_PLAYERS}–{MAX_PLAYERS}, not {players}")
        if deck not in ("purple", "golden"):
            raise ValueError(f"deck must be 'purple' or 'golden', not {deck!r}")
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}")
        if not isinstance(companions, bool):
            raise ValueError(f"companions must be True or False, not {companions!r}")
        self.players = players
        self.cut = Cut(players, max_cycles, max_decisions)  # when a game is truncated
        self.max_cycles, self.max_decisions = max_cycles, max_decisions
        self.deck = deck
        self.companions = companions
        self.reward_mode = check_reward_mode(reward)
        self.render_mode = render_mode
        self.catalogue = catalogue(players)
        self.possible_agents = [f"player_{p}" for p in range(players)]
        self._seat = {agent: p for p, agent in enumerate(self.possible_agents)}
        size = layout(players).size
        self.observation_spaces = {agent: spaces.Dict({
            "observation": spaces.Box(0.0, 1.0, (size,), np.float32),
            "action_mask": spaces.Box(0, 1, (self.catalogue.size,), np.int8),
        }) for agent in self.possible_agents}
        self.action_spaces = {agent: spaces.Discrete(self.catalogue.size)
                              for agent in self.possible_agents}
        self.state_space = spaces.Box(0.0, 1.0, (state_size(players),), np.float32)
        self._first_seed = seed
        self._seeds = np.random.default_rng(seed)
        self.state_: GameState | None = None
        self.game_seed = -1
        self._legal: dict[int, Action] = {}

    # --- the PettingZoo API -------------------------------------------------------------------

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game. ``seed`` is the engine's seed (the deal); without one, the first reset
        uses the ``seed`` option and later ones draw seeds from a generator it seeded."""
        if seed is not None:
            self._seeds = np.random.default_rng(seed)
            game_seed = int(seed)
        elif self._first_seed is not None:
            game_seed, self._first_seed = self._first_seed, None
        else:
            game_seed = int(self._seeds.integers(2**63))  # too many to search (docs/rl.md)
        self._first_seed = None
        self.game_seed = game_seed
        self.state_ = start(self.players, game_seed, self.deck, companions=self.companions,
                            variant=self.variant)
        self.cut.reset()
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._after_change()

    def _after_change(self) -> None:
        """Caches the legal actions and points ``agent_selection`` at the seat to act."""
        s = self.game
        self._legal = self.catalogue.legal(s)
        acting = to_act(s)
        if acting >= 0:
            self.agent_selection = self.possible_agents[acting]

    def observe(self, agent: str) -> ObsDict:
        s = self.game
        seat = self._seat[agent]
        if not s.over and to_act(s) == seat:
            mask = np.frombuffer(self.catalogue.mask_of(self._legal), np.int8)
        else:
            mask = np.zeros(self.catalogue.size, np.int8)
        return {"observation": observation_array(s, seat),
                "action_mask": mask}

    def state(self) -> np.ndarray:
        """The full state for a centralized critic: privileged, it holds every hidden card
        (``state_vector``). Never give it to a policy."""
        return state_array(self.game)

    def step(self, action: Any) -> None:
        """Applies ``action`` for ``agent_selection`` (None for an agent that is done). Bad
        input raises and changes nothing: a finished game or no reset (GameOverError,
        RuntimeError), an index that is not legal now (IllegalActionError),
        ``agent_selection`` set by hand to a seat the engine is not waiting for
        (IllegalActionError)."""
        s = self.game
        if not self.agents:
            raise GameOverError("the game is over and every agent has left: call reset()")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if self.illegal_reward is not None and self._lost_by_illegal(agent, action):
            return
        engine_action = self._engine_action(agent, action)
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        apply_in_place(s, engine_action)
        self.cut.count(self._seat[agent])
        if s.over:
            for agent_name, value in zip(self.agents, final_rewards(s, self.reward_mode),
                                         strict=True):
                self.rewards[agent_name] = value
            self.terminations = dict.fromkeys(self.agents, True)
            self._legal = {}
            self._accumulate_rewards()  # before the end every reward is 0: nothing to add
        elif self.cut.reached:  # no result: every reward stays 0 (docs/rl.md, "Truncation")
            self.truncations = dict.fromkeys(self.agents, True)
            self._legal = {}
        else:
            self._after_change()
        if self.render_mode == "human":
            self.render()

    def _lost_by_illegal(self, agent: str, action: Any) -> bool:
        """PettingZoo's classic rules for a bad action (``illegal_reward`` set): out of the
        action space, an AssertionError; in it but not legal now, the game ends with
        ``illegal_reward`` for ``agent`` and 0 for the others, and a warning."""
        if isinstance(action, int | np.integer):  # what Discrete.contains does, faster
            inside = 0 <= action < self.catalogue.size
        else:
            inside = self.action_space(agent).contains(action)
        assert inside, "action is not in action space"
        if int(action) in self._legal:
            return False
        EnvLogger.warn_on_illegal_move()
        self._cumulative_rewards[agent] = 0
        self.terminations = dict.fromkeys(self.agents, True)
        self.truncations = dict.fromkeys(self.agents, True)
        self.rewards = dict.fromkeys(self.agents, 0)
        assert self.illegal_reward is not None
        self.rewards[agent] = float(self.illegal_reward)
        self._accumulate_rewards()
        self._deads_step_first()
        return True

    def _engine_action(self, agent: str, action: Any) -> Action:
        """The engine action of a catalogue index for ``agent``, or a one-sentence error."""
        acting = self.possible_agents[to_act(self.game)]
        if agent != acting:
            raise IllegalActionError(
                f"{agent} is not the agent to act: the game waits for {acting} "
                "(agent_selection must not be set by hand)")
        if isinstance(action, bool) or not isinstance(action, int | np.integer):
            raise IllegalActionError(
                f"an action is a catalogue index (an integer 0–{self.catalogue.size - 1}), "
                f"not {action!r}")
        engine_action = self._legal.get(int(action))
        if engine_action is None:
            raise IllegalActionError(
                f"action {action} is not legal for {agent} now (its action_mask marks the "
                f"{len(self._legal)} legal indices)")
        return engine_action

    def render(self) -> str | None:
        """The board as text, as a spectator sees it (no hidden card); "human" prints it."""
        if self.render_mode is None:
            return None
        s = self.game
        text = render(view(s, None), CATALOG)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release: the environment holds no windows or files."""
