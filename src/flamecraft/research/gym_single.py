"""One seat of Flamecraft as a Gymnasium environment; the other seats are bots, by name.

Why a single-agent view: most RL libraries train one policy against fixed opponents. The
learner's observations, mask and action indices are exactly the PettingZoo environment's
(``encoding``); opponents move inside ``step`` until the learner must choose again.

Opponents are looked up by name in the project's bot registry ``bots.BOTS`` (here
``OPPONENTS``: "random", and every bot registered there); ``register_opponent`` adds more (any
function ``(state, random.Random) -> engine action``). An opponent may also be a policy of
its own seat's ``(observation, action_mask) -> index`` (``PolicyOpponent``; ``frozen`` copies
the learner for self-play, ``set_opponent`` swaps it). An index that is not
legal ends the episode with ``illegal_reward`` (Gymnasium's checker and unmasked samplers
send such actions; masked learners never do). ``action_masks()`` gives the mask the way
sb3-contrib's MaskablePPO expects it. ``players=1`` is a solo game (design §7): there are no
opponents, and the reward is measured against the solo rating (``encoding.final_rewards``);
``companions=True`` adds the Companion module (design §6). A game still going after
``max_cycles`` cycles (every seat acted once, the learner's and the bots' decisions counted)
or ``max_decisions`` decisions is cut: the step returns ``truncated=True`` and reward 0, the
one outcome of a cut game in every interface.
Once an episode has ended (terminated, truncated, or ended by an illegal index), ``step``
raises Gymnasium's ResetNeeded until ``reset``. The environment deep-copies and pickles (for
worker processes: Gymnasium's AsyncVectorEnv, SB3's SubprocVecEnv), keeping its opponents by
name (the registry's search bots are closures). Importing this module registers the
environment as ``gymnasium.make("flamecraft/Flamecraft-v2", players=3)``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces
from gymnasium.error import ResetNeeded

from ..ai.roster import BOTS
from ..core.actions import Action
from ..core.board import CATALOG
from ..core.engine import apply_in_place, start, to_act
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

Bot = Callable[[GameState, random.Random], Action]
ObsDict = dict[str, np.ndarray]
Policy = Callable[[np.ndarray, np.ndarray], Any]  # (observation, action_mask) -> index

OPPONENTS: dict[str, Bot] = BOTS  # one registry: a bot added anywhere is an opponent here


ENV_ID = "flamecraft/Flamecraft-v2"


class PolicyOpponent:
    """An opponent that plays as the learner does: from its own seat's observation and mask
    (never the engine state) to a catalogue index. Any ``policy(observation, action_mask)``
    callable (a trained network, a frozen snapshot of the learner: ``frozen``). Pickles
    when its policy does (for worker processes)."""

    def __init__(self, policy: Policy, name: str = "policy"):
        if not callable(policy):
            raise TypeError(f"a policy is a callable (observation, action_mask) -> index, "
                            f"not {policy!r}")
        self.policy = policy
        self.name = name

    @classmethod
    def frozen(cls, policy: Any, name: str = "snapshot") -> PolicyOpponent:
        """A copy of ``policy`` as it is now (``copy.deepcopy``): the learner's later updates
        do not reach it. Self-play against past selves."""
        import copy

        return cls(copy.deepcopy(policy), name)

    def __repr__(self) -> str:
        return f"PolicyOpponent({self.name})"


Opponent = str | PolicyOpponent | Policy  # a registered bot's name, or a policy


def register_opponent(name: str, bot: Bot) -> None:
    """Makes a bot available to ``FlamecraftSingleEnv(opponents=...)`` (and to every other
    user of ``bots.BOTS``) by name."""
    OPPONENTS[name] = bot


class FlamecraftSingleEnv(CutGame, gym.Env[dict[str, Any], np.int64]):
    """Seat ``seat`` learns; every other seat is played by a named bot."""

    metadata: dict[str, Any] = {"render_modes": ["ansi"], "render_fps": 4,  # noqa: RUF012
                                "encoding_version": ENCODING_VERSION,
                                "env_version": ENV_VERSION}

    def __init__(self, players: int = 2, seat: int = 0,
                 opponents: str | Sequence[Opponent] = "random", deck: str = "purple",
                 reward: str = "win", illegal_reward: float = -1.0,
                 render_mode: str | None = None, companions: bool = False,
                 max_cycles: int = DEFAULT_MAX_CYCLES,
                 max_decisions: int = DEFAULT_MAX_DECISIONS, variant: Any = None):
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise ValueError(f"players must be {MIN_PLAYERS}–{MAX_PLAYERS}, not {players}")
        if not 0 <= seat < players:
            raise ValueError(f"seat must be 0–{players - 1}, not {seat}")
        if not isinstance(companions, bool):
            raise ValueError(f"companions must be True or False, not {companions!r}")
        names = ([opponents] * (players - 1) if isinstance(opponents, str)
                 else [_opponent(o) for o in opponents])
        if len(names) != players - 1:
            raise ValueError(f"{players - 1} opponents needed, {len(names)} given")
        unknown = [name for name in names if isinstance(name, str) and name not in OPPONENTS]
        if unknown:
            raise ValueError(f"unknown opponent(s) {unknown}; known: {sorted(OPPONENTS)}")
        from ..core.variant import variant_of

        self.variant = variant_of(variant)  # a research variant (core/variant.py) or the rules
        if render_mode not in (None, "ansi"):
            raise ValueError("render_mode must be None or 'ansi'")
        self.players, self.seat, self.deck = players, seat, deck
        self.cut = Cut(players, max_cycles, max_decisions)  # every seat's decisions count
        self.max_cycles, self.max_decisions = max_cycles, max_decisions
        self._ended = ""  # why the episode ended ("" while it runs)
        self.companions = companions
        self.reward_mode = check_reward_mode(reward)
        self.illegal_reward = float(illegal_reward)
        self.render_mode = render_mode
        others = [p for p in range(players) if p != seat]
        # A bot by name, or a PolicyOpponent (kept as itself: it pickles if its policy does).
        self.opponent_names: dict[int, str | PolicyOpponent] = dict(
            zip(others, names, strict=True))
        self.opponents: dict[int, Bot] = {}
        self.catalogue = catalogue(players)
        self.observation_space = spaces.Dict({
            "observation": spaces.Box(0.0, 1.0, (layout(players).size,), np.float32),
            "action_mask": spaces.Box(0, 1, (self.catalogue.size,), np.int8),
        })
        self.action_space = spaces.Discrete(self.catalogue.size)
        self.state_: GameState | None = None
        self._legal: dict[int, Action] = {}
        self._bot_rng = random.Random(0)
        self._bind_opponents()

    def _bind_opponents(self) -> None:
        self.opponents = {p: OPPONENTS[o] if isinstance(o, str) else self._policy_bot(p, o)
                          for p, o in self.opponent_names.items()}

    def _policy_bot(self, seat: int, opponent: PolicyOpponent) -> Bot:
        """A policy as a bot of ``seat``: handed that seat's observation and mask only."""
        cat = self.catalogue

        def play(s: GameState, rng: random.Random) -> Action:
            legal = cat.legal(s)
            mask = np.frombuffer(cat.mask_of(legal), np.int8)
            index = opponent.policy(observation_array(s, seat), mask)
            action = legal.get(int(index))
            if action is None:
                raise ValueError(f"the opponent {opponent.name} at seat {seat} chose action "
                                 f"{index}, which is not legal (its mask marks "
                                 f"{len(legal)} legal indices)")
            return action
        return play

    def set_opponent(self, seat: int, opponent: Opponent) -> None:
        """The bot at ``seat`` becomes ``opponent`` (a registered name, a policy, or a
        ``PolicyOpponent``, say ``PolicyOpponent.frozen(learner)``) from its next move on:
        self-play swaps in a new snapshot of the learner between episodes."""
        if seat not in self.opponent_names:
            raise ValueError(f"seat {seat} is not an opponent's: the opponents sit at "
                             f"{sorted(self.opponent_names)}")
        entry = _opponent(opponent)
        if isinstance(entry, str) and entry not in OPPONENTS:
            raise ValueError(f"unknown opponent {entry!r}; known: {sorted(OPPONENTS)}")
        self.opponent_names[seat] = entry
        self._bind_opponents()

    def __getstate__(self) -> dict[str, Any]:
        """Everything but the bots themselves, which are kept by name: a registered bot may
        be a closure (the search bots keep one bot per thread), which pickle cannot send to
        a worker process. A copy or an unpickled environment looks its bots up again in
        ``OPPONENTS``, so a process that unpickles one must have registered the same names
        (the built-in ones always are)."""
        data = self.__dict__.copy()
        del data["opponents"]
        return data

    def __setstate__(self, data: dict[str, Any]) -> None:
        unknown = sorted({o for o in data["opponent_names"].values() if isinstance(o, str)}
                         - set(OPPONENTS))
        if unknown:
            raise ValueError(f"unknown opponent(s) {unknown} in this process: register them "
                             "(register_opponent) before unpickling the environment")
        self.__dict__.update(data)
        self._bind_opponents()

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[ObsDict, dict[str, Any]]:
        """A new game whose deal and bot choices come from ``self.np_random`` (seeded by
        ``seed``), then the bots move until the learner must choose."""
        super().reset(seed=seed)
        game_seed = int(self.np_random.integers(2**63))  # too many to search (docs/rl.md)
        self._bot_rng = random.Random(int(self.np_random.integers(2**31)))
        self.state_ = start(self.players, game_seed, self.deck, companions=self.companions,
                            variant=self.variant)
        self.cut.reset()
        self._ended = ""
        self._play_opponents(limited=False)
        return self._obs(), {"game_seed": game_seed}

    def _play_opponents(self, limited: bool) -> None:
        """The bots move until the learner must choose, the game ends or, when ``limited``,
        the game reaches its cut (``max_cycles``, ``max_decisions``). ``reset`` is not
        limited: it cannot
        report a cut, and the bots' moves before the learner's first decision are few (an
        episode reaching the limit there is cut at its first step)."""
        s = self.game
        me, cut, opponents, rng = self.seat, self.cut, self.opponents, self._bot_rng
        seat = to_act(s)  # -1 once the game is over
        while seat >= 0 and seat != me and not (limited and cut.reached):
            apply_in_place(s, opponents[seat](s, rng))
            cut.count(seat)
            seat = to_act(s)
        self._legal = self.catalogue.legal(s) if seat == me else {}

    def _obs(self) -> ObsDict:
        mask = np.zeros(self.catalogue.size, np.int8)
        mask[list(self._legal)] = 1
        return {"observation": observation_array(self.game, self.seat),
                "action_mask": mask}

    def action_masks(self) -> np.ndarray:
        """The legal indices now as a boolean vector (MaskablePPO's convention)."""
        mask = np.zeros(self.catalogue.size, bool)
        mask[list(self._legal)] = True
        return mask

    def step(self, action: np.int64 | int) -> tuple[ObsDict, float, bool, bool, dict[str, Any]]:
        """The learner's action, then the bots' until the learner must choose again. An index
        that is not legal ends the episode with ``illegal_reward`` and changes nothing; a step
        before ``reset`` or after the episode ended raises ResetNeeded, and a value that is not
        an integer index ValueError (neither changes anything)."""
        if self.state_ is None:
            raise ResetNeeded("call reset() before step(): no episode has started")
        if self._ended:
            raise ResetNeeded(f"the episode has ended ({self._ended}): call reset() before "
                              "step()")
        if isinstance(action, bool) or not isinstance(action, int | np.integer):
            raise ValueError(f"an action is a catalogue index (an integer 0–"
                             f"{self.catalogue.size - 1}), not {action!r}")
        reward, terminated, truncated, illegal = self.advance(int(action))
        return (self._obs(), reward, terminated, truncated,
                {"illegal_action": True} if illegal else {})

    def advance(self, action: int) -> tuple[float, bool, bool, bool]:
        """``step``'s move without its observation: the learner's action, then the bots'.
        Returns (reward, terminated, truncated, illegal). For ``vector.FlamecraftVectorEnv``,
        which writes the observation into its own arrays; the episode must be running."""
        s = self.game
        engine_action = self._legal.get(action)
        if engine_action is None:
            self._ended = f"action {action} was not legal"
            return self.illegal_reward, True, False, True
        apply_in_place(s, engine_action)
        self.cut.count(self.seat)
        self._play_opponents(limited=True)
        truncated = not s.over and self.cut.reached
        if s.over:
            self._ended = "the game is over"
        elif truncated:  # no result: reward 0 (docs/rl.md, "Truncation")
            self._ended = self.cut.why()
            self._legal = {}
        reward = final_rewards(s, self.reward_mode)[self.seat] if s.over else 0.0
        return reward, s.over, truncated, False

    def render(self) -> str | None:
        """The board as seen by the learner's seat ("ansi")."""
        if self.render_mode != "ansi":
            return None
        s = self.game
        return render(view(s, self.seat), CATALOG)


def _opponent(o: Any) -> str | PolicyOpponent:
    """An opponent as the env keeps it: a name, or a policy wrapped as a PolicyOpponent."""
    if isinstance(o, str | PolicyOpponent):
        return o
    if callable(o):
        return PolicyOpponent(o)
    raise TypeError(f"an opponent is a registered bot's name or a policy "
                    f"(observation, action_mask) -> index, not {o!r}")


if ENV_ID not in gym.registry:
    gym.register(id=ENV_ID, entry_point="flamecraft.research.gym_single:FlamecraftSingleEnv")
