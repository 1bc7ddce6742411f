"""N games stepped together, with observations, masks and rewards in preallocated arrays.

Two forms, both auto-resetting as Gymnasium 1.x does by default (``AutoresetMode.NEXT_STEP``:
the step after a game ended resets that game, ignores its action, and returns the new
game's first observation with reward 0 and neither flag set):

- ``FlamecraftVectorEnv``: a ``gymnasium.vector.VectorEnv`` of ``FlamecraftSingleEnv`` games
  (one seat learns, bots play the others). Game ``i`` plays exactly as a
  ``FlamecraftSingleEnv`` reset with ``seed + i`` would (Gymnasium's convention for a
  vector env's seeds), then reset without a seed at each auto-reset.
- ``FlamecraftBatch``: the multi-agent form, as batched game libraries (pgx) step many games:
  in every game the seat to act acts (``current_player``), every seat's reward comes in
  ``rewards[i, seat]`` when the game ends, and one policy can play all seats (self-play).

Why: a loop over N environments pays, at every step of every game, for a whole new
observation (about 140 non-zero values written one by one, then cast to float32) and mask,
an info dict, and Gymnasium's batching of them (``SyncVectorEnv``). Here each game's
observation is kept in a float32 row by a ``rows.RowEncoder``, which writes only the values
whose inputs changed, and its mask by its changed indices; the rows go to arrays made once,
copied whole at every step. The batch's loop over its games runs compiled
(``batched.BatchCore``), which also writes the arrays it returns.
The engine's work (the moves, the legal actions) is what remains per game, and bounds the
speed-up. ``bench/vector_env.py`` measures the forms side by side, and the engine alone
(docs/rl.md).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from ..core.engine import start
from ..core.errors import IllegalActionError
from ..core.state import GameState
from .batched import BatchCore, BatchRows
from .cut import DEFAULT_MAX_CYCLES, DEFAULT_MAX_DECISIONS, Cut, check_limit
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
from .gym_single import FlamecraftSingleEnv, Opponent
from .rows import RowEncoder, write_mask


def float_view(row: np.ndarray) -> memoryview[float]:
    """A float32 row as the memoryview a ``RowEncoder`` writes through (no copy)."""
    if row.dtype != np.float32 or row.ndim != 1 or not row.flags.c_contiguous:
        raise ValueError(f"a RowEncoder writes into a contiguous float32 row, not an array "
                         f"of type {row.dtype} and shape {row.shape}")
    return row.data.cast("B").cast("f")


class _Rows:
    """Each game's observation and mask rows for one seat (the single-agent form), kept
    current by a ``rows.RowEncoder`` per game and by ``write_mask`` (only what changed is
    written; ``rows`` says why).

    The encoders write into rows of their own, which ``publish`` copies into the arrays the
    env returns (one copy a step for all games): a caller may then write into those arrays
    (normalize them in place…) without corrupting what the encoders keep."""

    def __init__(self, observations: np.ndarray, masks: np.ndarray, players: int, seat: int):
        n = len(observations)
        self.observations, self.masks = observations, masks
        self.mask_rows = np.zeros_like(masks)
        self._masked: list[list[int]] = [[] for _ in range(n)]  # the 1s of each mask row
        self._rows = np.zeros_like(observations)
        self._encoders = [RowEncoder(players, seat) for _ in range(n)]
        self._views()

    def _views(self) -> None:
        """Memoryviews of the rows, which the encoders write through."""
        self._mask_views = [memoryview(row) for row in self.mask_rows]
        self._obs_views = [float_view(row) for row in self._rows]

    def __getstate__(self) -> dict[str, Any]:
        """Without the views (made again); the encoders copy as new ones, which write their
        rows whole at their next write."""
        data = self.__dict__.copy()
        del data["_mask_views"], data["_obs_views"]
        return data

    def __setstate__(self, data: dict[str, Any]) -> None:
        self.__dict__.update(data)
        self._views()

    def forget(self, i: int) -> None:
        """Game ``i`` is a new game: its rows are written whole next time."""
        self._encoders[i].forget()

    def write(self, i: int, s: GameState, legal: list[int]) -> None:
        """Game ``i``'s rows become the seat's observation of ``s`` and the mask of
        ``legal`` (in the env's arrays at the next ``publish``)."""
        self._encoders[i].write(self._obs_views[i], s)
        write_mask(self._mask_views[i], self._masked[i], legal)
        self._masked[i] = legal

    def row(self, i: int) -> tuple[np.ndarray, np.ndarray]:
        """Copies of game ``i``'s observation and mask as last written."""
        return self._rows[i].copy(), self.mask_rows[i].copy()

    def publish(self) -> None:
        """Every game's rows into the env's arrays."""
        np.copyto(self.observations, self._rows)
        np.copyto(self.masks, self.mask_rows)


def _check_num_envs(num_envs: int) -> int:
    if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
        raise ValueError(f"num_envs must be a whole number of at least 1, not {num_envs!r}")
    return num_envs


def _actions_of(actions: Any, num_envs: int) -> np.ndarray:
    """The batch of actions as integers, one per game, or a ValueError saying why not."""
    array = np.asarray(actions)
    if array.shape != (num_envs,) or array.dtype.kind not in "iu":
        raise ValueError(f"actions must be {num_envs} integer catalogue indices (one per "
                         f"game), not an array of shape {array.shape} and type {array.dtype}")
    return array


class FlamecraftVectorEnv(gym.vector.VectorEnv):
    """``num_envs`` single-agent games (``FlamecraftSingleEnv``'s options) stepped together.

    ``observations`` is ``{"observation": float32[N, obs], "action_mask": int8[N, actions]}``
    (the single env's spaces, batched), rewards ``float32[N]``, and ``action_masks()`` the
    masks as booleans (MaskablePPO's convention). The arrays are the env's own, overwritten
    by the next step: copy what you keep."""

    metadata: dict[str, Any] = {  # noqa: RUF012
        "autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": [],
        "encoding_version": ENCODING_VERSION, "env_version": ENV_VERSION}

    def __init__(self, num_envs: int, players: int = 2, seat: int = 0,
                 opponents: str | Sequence[Opponent] = "random", deck: str = "purple",
                 reward: str = "win", illegal_reward: float = -1.0, companions: bool = False,
                 max_cycles: int = DEFAULT_MAX_CYCLES,
                 max_decisions: int = DEFAULT_MAX_DECISIONS, variant: Any = None,
                 autoreset_mode: AutoresetMode | str = AutoresetMode.NEXT_STEP):
        self.num_envs = _check_num_envs(num_envs)
        try:
            mode = AutoresetMode(autoreset_mode)
        except ValueError:
            raise ValueError(f"autoreset_mode must be NEXT_STEP or SAME_STEP, not "
                             f"{autoreset_mode!r}") from None
        if mode == AutoresetMode.DISABLED:
            raise ValueError("autoreset_mode must be NEXT_STEP or SAME_STEP, not DISABLED")
        self.autoreset_mode = mode
        self.metadata = {**self.metadata, "autoreset_mode": mode}
        # The games are single envs (their options are checked there, their seeding and bots
        # are theirs); only their stepping is done here, into the arrays below.
        self.envs = [FlamecraftSingleEnv(players, seat, opponents, deck, reward, illegal_reward,
                                         None, companions, max_cycles, max_decisions, variant)
                     for _ in range(self.num_envs)]
        first = self.envs[0]
        self.seat = seat
        self.single_observation_space = first.observation_space
        self.single_action_space = first.action_space
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self.catalogue = first.catalogue
        n, size = self.num_envs, layout(players).size
        self._obs = np.zeros((n, size), np.float32)
        self._mask = np.zeros((n, self.catalogue.size), np.int8)
        self._rewards = np.zeros(n, np.float32)
        self._terminated = np.zeros(n, bool)
        self._truncated = np.zeros(n, bool)
        self._autoreset = np.zeros(n, bool)
        self._observations: dict[str, np.ndarray] = {"observation": self._obs,
                                                     "action_mask": self._mask}
        self._rows = _Rows(self._obs, self._mask, players, seat)

    def _write(self, i: int) -> None:
        env = self.envs[i]
        self._rows.write(i, env.game, list(env._legal))

    def reset(self, *, seed: int | Sequence[int | None] | None = None,
              options: dict[str, Any] | None = None) -> tuple[dict[str, np.ndarray],
                                                               dict[str, Any]]:
        """Every game anew: game ``i`` with ``seed + i`` (or ``seed[i]``), as Gymnasium's
        vector envs seed; ``info["game_seed"]`` holds each game's deal seed (privileged)."""
        if seed is None or isinstance(seed, int):
            seeds = [None if seed is None else seed + i for i in range(self.num_envs)]
        else:
            seeds = list(seed)
            if len(seeds) != self.num_envs:
                raise ValueError(f"{self.num_envs} seeds needed, {len(seeds)} given")
        game_seeds = np.zeros(self.num_envs, np.int64)
        for i, env in enumerate(self.envs):
            _, info = env.reset(seed=seeds[i])
            game_seeds[i] = info["game_seed"]
            self._rows.forget(i)
            self._write(i)
        self._rows.publish()
        self._autoreset[:] = False
        return self._observations, {"game_seed": game_seeds}

    def step(self, actions: Any) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray,
                                          np.ndarray, dict[str, Any]]:
        """One action per game; a game that ended at the last step is reset instead (its
        action ignored). An index that is not legal ends that game with ``illegal_reward``
        (``info["illegal_action"]`` marks it), as in the single env."""
        picks: list[int] = _actions_of(actions, self.num_envs).tolist()
        n = self.num_envs
        # Each game's results gathered in lists and written to the arrays once: a numpy
        # element write costs more than the list's.
        rewards, terminated, truncated = [0.0] * n, [False] * n, [False] * n
        illegal = [False] * n
        same_step = self.autoreset_mode == AutoresetMode.SAME_STEP
        final: list[int] = []
        autoreset: list[bool] = self._autoreset.tolist()
        rows = self._rows
        for i, env in enumerate(self.envs):
            if autoreset[i]:
                env.reset()
                rows.forget(i)
            else:
                reward, done, cut, was_illegal = env.advance(picks[i])
                rewards[i], terminated[i], truncated[i], illegal[i] = (reward, done, cut,
                                                                       was_illegal)
                if same_step and (done or cut):
                    final.append(i)
                    continue
            rows.write(i, env.game, list(env._legal))
        self._rewards[:] = rewards
        self._terminated[:] = terminated
        self._truncated[:] = truncated
        info: dict[str, Any] = {"illegal_action": np.array(illegal)} if any(illegal) else {}
        if same_step:
            if final:  # Gymnasium's SAME_STEP: the last observation in info, a new game now
                final_obs = np.full(self.num_envs, None, object)
                ended = np.zeros(self.num_envs, bool)
                for i in final:
                    self._write(i)
                    last, mask = self._rows.row(i)
                    final_obs[i] = {"observation": last, "action_mask": mask}
                    ended[i] = True
                    self.envs[i].reset()
                    self._rows.forget(i)
                    self._write(i)
                info.update(final_obs=final_obs, _final_obs=ended)
        else:
            np.logical_or(self._terminated, self._truncated, out=self._autoreset)
        self._rows.publish()
        return self._observations, self._rewards, self._terminated, self._truncated, info

    def action_masks(self) -> np.ndarray:
        """The legal indices now, one row per game, as booleans (MaskablePPO's)."""
        return self._mask.astype(bool)

    def set_opponent(self, seat: int, opponent: Opponent) -> None:
        """Every game's bot at ``seat`` becomes ``opponent`` from now on (a name, or a policy
        such as a frozen snapshot of the learner: ``FlamecraftSingleEnv.set_opponent``)."""
        for env in self.envs:
            env.set_opponent(seat, opponent)

    def close_extras(self, **kwargs: Any) -> None:
        """Nothing to release: the games hold no windows, files or processes."""


class FlamecraftBatch:
    """``num_envs`` games in which every seat is an agent: at each step the seat to act in
    game ``i`` (``current_player[i]``) plays ``actions[i]``.

    Arrays, made once and overwritten by every step (copy what you keep):
    ``observations`` float32[N, obs] (the acting seat's observation), ``action_masks``
    int8[N, actions], ``current_player`` int64[N], ``rewards`` float32[N, players] (each
    seat's reward, non-zero only at a game's end: ``encoding.final_rewards``, 0 for a cut),
    ``terminated`` and ``truncated`` bool[N]. Auto-reset as Gymnasium's NEXT_STEP: the step
    after a game ended deals game ``i``'s next deal, ignoring its action. Deals come from
    ``numpy.random.default_rng(seed + i)`` per game, so a batch replays from its seed.

    The games are stepped by ``batched.BatchCore``, compiled with the engine: it keeps each
    seat's row (an ``rows.RowEncoder`` per seat of every game) and writes the arrays above
    through memoryviews of them (the acting seat's row copied whole, the mask row from zeros),
    so that writing into them changes no later observation."""

    def __init__(self, num_envs: int, players: int = 2, deck: str = "purple",
                 reward: str = "win", companions: bool = False,
                 max_cycles: int = DEFAULT_MAX_CYCLES,
                 max_decisions: int = DEFAULT_MAX_DECISIONS, variant: Any = None):
        from ..core.variant import variant_of

        self.num_envs = _check_num_envs(num_envs)
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise ValueError(f"players must be {MIN_PLAYERS}–{MAX_PLAYERS}, not {players}")
        if deck not in ("purple", "golden"):
            raise ValueError(f"deck must be 'purple' or 'golden', not {deck!r}")
        if not isinstance(companions, bool):
            raise ValueError(f"companions must be True or False, not {companions!r}")
        self.players, self.deck, self.companions = players, deck, companions
        self.variant = variant_of(variant)
        self.reward_mode = check_reward_mode(reward)
        self.catalogue = catalogue(players)
        self.max_cycles = check_limit("max_cycles", max_cycles)
        self.max_decisions = check_limit("max_decisions", max_decisions)
        n, size = self.num_envs, layout(players).size
        self.observation_space = spaces.Box(0.0, 1.0, (size,), np.float32)  # one game's
        self.action_space = spaces.Discrete(self.catalogue.size)
        self.observations = np.zeros((n, size), np.float32)
        self.action_masks = np.zeros((n, self.catalogue.size), np.int8)
        self.current_player = np.zeros(n, np.int64)
        self.rewards = np.zeros((n, players), np.float32)
        self._flags = np.zeros(2 * n, bool)  # terminated, then truncated
        self.terminated, self.truncated = self._flags[:n], self._flags[n:]
        self._rngs = [np.random.default_rng() for _ in range(n)]
        self.game_seeds = np.zeros(n, np.int64)
        # Every seat's row of every game (the encoders write into these), kept apart from
        # the arrays returned (the core copies them there).
        self._seat_rows = np.zeros((n, players, size), np.float32)
        self._core = BatchCore(players, n, self.max_cycles, self.max_decisions)
        self._rewarded: list[int] = []  # the games whose rewards row is not zero
        self._ended: list[int] = []  # the games that ended (or were cut) at the last step
        self._bind()

    def _bind(self) -> None:
        """Gives the core memoryviews of the arrays it writes (again after a copy)."""
        self._core.bind(BatchRows(
            [[float_view(row) for row in rows] for rows in self._seat_rows],
            [float_view(row) for row in self.observations],
            [row.data.cast("B") for row in self.action_masks],  # bytes, as the zeros copied
            self.current_player.data, self._flags.view(np.uint8).data))

    def __getstate__(self) -> dict[str, Any]:
        data = self.__dict__.copy()
        del data["terminated"], data["truncated"]
        return data

    def __setstate__(self, data: dict[str, Any]) -> None:
        self.__dict__.update(data)
        n = self.num_envs
        self.terminated, self.truncated = self._flags[:n], self._flags[n:]
        self._bind()

    @property
    def games(self) -> list[GameState | None]:
        """Every game's engine state (privileged: every hidden card)."""
        return self._core.games

    @property
    def cuts(self) -> list[Cut]:
        """Every game's cut (its decisions and cycles so far)."""
        return self._core.cuts

    def _deal(self, i: int) -> None:
        seed = int(self._rngs[i].integers(2**63))
        self.game_seeds[i] = seed
        s = start(self.players, seed, self.deck, companions=self.companions,
                  variant=self.variant)
        self._core.deal(i, s)

    def reset(self, seed: int | None = None) -> np.ndarray:
        """Every game anew, game ``i``'s deals from ``default_rng(seed + i)``."""
        self._rngs = [np.random.default_rng(None if seed is None else seed + i)
                      for i in range(self.num_envs)]
        self.rewards[:] = 0.0
        self._rewarded = []
        self._ended = []
        for i in range(self.num_envs):
            self._deal(i)
        return self.observations

    def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """One action per game, for its ``current_player``; returns ``(observations,
        rewards, terminated, truncated)``. An index that is not legal raises
        IllegalActionError naming the game, before any game moves."""
        core = self._core
        picks: list[int] = _actions_of(actions, self.num_envs).tolist()
        ended = self._ended  # the games that ended at the last step: dealt anew instead
        bad = core.first_illegal(picks, ended)
        if bad >= 0:
            raise IllegalActionError(
                f"action {picks[bad]} is not legal in game {bad} for seat "
                f"{core.current[bad]} (its action_masks row marks the legal ones)")
        rewards = self.rewards
        if self._rewarded:  # rewards come at a game's end only: the last ones go
            for i in self._rewarded:
                rewards[i] = 0.0
            self._rewarded = []
        for i in ended:
            self._deal(i)
        self._ended = core.step(picks, ended)
        for i in self._ended:
            s = core.games[i]
            assert s is not None
            if s.over:
                rewards[i] = final_rewards(s, self.reward_mode)
                self._rewarded.append(i)
        return self.observations, rewards, self.terminated, self.truncated


def random_masked_actions(masks: np.ndarray, rng: random.Random) -> np.ndarray:
    """One uniformly random legal index per row of ``masks`` (a helper for tests, benches
    and examples; a game without legal actions, one that ended, gets 0)."""
    out = np.zeros(len(masks), np.int64)
    for i, row in enumerate(masks):
        legal = np.flatnonzero(row)
        if len(legal):
            out[i] = legal[rng.randrange(len(legal))]
    return out
