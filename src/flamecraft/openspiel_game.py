"""Flamecraft as an OpenSpiel game, registered as ``python_flamecraft`` on import.

Why: OpenSpiel brings search and game-theory algorithms (MCTS, IS-MCTS, CFR-style learners)
and its conformance tests. Parameters: ``players`` (1–5; 1 is a solo game, design §7),
``companions`` (the optional Companion module, design §6), ``deck`` ("purple"/"golden"),
``seed`` (the engine seed of the deal) and ``reward`` ("win"/"margin", as in PettingZoo; in
solo both are measured against the solo rating, ``encoding.final_rewards``).

Chance: the engine draws all its randomness from the seed at setup, so the game is modelled
as DETERMINISTIC: the deal is fixed by the ``seed`` parameter and no chance node exists. The
hidden part is still hidden from the players: information states and observations hold only
what a seat sees, and ``resample_from_infostate`` re-deals the unseen cards
(``hidden.determinize``), so IS-MCTS searches over deals as if they were unknown. To play
many deals, load the game with many seeds.

Actions are the indices of ``encoding.catalogue(players)``; observation and information-state
tensors are ``encoding.observation``; the strings are the seat's view (JSON) and, for the
information state, every decision so far as that seat saw it. Serialization pickles the
engine state through the project's own JSON (``serialize.state_to_json``). A game that reaches
``MAX_GAME_LENGTH`` decisions (never seen in play) ends there and is scored as it stands.

    import flamecraft.openspiel_game  # registers the game
    game = pyspiel.load_game("python_flamecraft", {"players": 3, "seed": 7})
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

import numpy as np
import pyspiel

from .core.actions import Action
from .core.board import CATALOG
from .core.engine import apply_in_place, start, text, to_act
from .core.events import Event
from .core.hidden import determinize
from .core.serialize import load_state, state_to_json
from .core.state import GameState
from .core.view import view
from .encoding import (
    MARGIN_CAP,
    MAX_PLAYERS,
    MIN_PLAYERS,
    catalogue,
    check_reward_mode,
    final_rewards,
    layout,
)
from .envs import observation_array

MAX_GAME_LENGTH = 3000
RESAMPLE_TRIES = 1000
DEFAULT_PARAMS: dict[str, Any] = {"players": 2, "deck": "purple", "seed": 0, "reward": "win",
                                  "companions": False}

GAME_TYPE = pyspiel.GameType(
    short_name="python_flamecraft",
    long_name="Python Flamecraft",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=MAX_PLAYERS,
    min_num_players=MIN_PLAYERS,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=DEFAULT_PARAMS,
)

# One decision: the events it made (its own, then the forced ones it led to: what each seat
# reads of them is ``Event.seen_by``, the one rule of core/events.py), and each seat's private
# holdings after it when they changed, else "".
Entry = tuple[tuple[Event, ...], tuple[str, ...]]


def _state_json(s: GameState) -> str:
    """The project's state JSON (``serialize.state_to_json``), compact: it is written at
    every clone check and serialization, and the indented form is several times slower."""
    return json.dumps(state_to_json(s), ensure_ascii=False)


def _private(s: GameState, p: int) -> str:
    """What seat p alone holds: its hand and unscored Fancy Dragons (ids, sorted)."""
    hand = sorted(CATALOG.artisans[a].id for a in s.hand[p])
    fancy = sorted(CATALOG.fancies[f].id for f in s.fancy[p])
    return f"hand {','.join(hand)}; fancy {','.join(fancy)}"


class _Box:
    """The engine state and the decision record of one OpenSpiel state.

    OpenSpiel clones Python states with ``copy.deepcopy`` and serializes them with pickle;
    this box makes a clone a cheap ``GameState.copy`` (the record is immutable and shared)
    and pickles the engine state as the project's JSON."""

    def __init__(self, state: GameState, players: int, reward: str,
                 record: tuple[Entry, ...] = ()):
        self.state = state
        self.players = players
        self.reward = reward
        self.record = record
        self.legal: dict[int, Action] | None = None

    def legal_now(self) -> dict[int, Action]:
        if self.legal is None:
            self.legal = catalogue(self.players).legal(self.state)
        return self.legal

    def __deepcopy__(self, memo: dict[int, Any]) -> _Box:
        other = _Box(self.state.copy(), self.players, self.reward, self.record)
        other.legal = self.legal
        return other

    def __getstate__(self) -> dict[str, Any]:
        return {"state": _state_json(self.state), "players": self.players,
                "reward": self.reward,
                "record": [[[_event_json(e) for e in events], list(snaps)]
                           for events, snaps in self.record]}

    def __setstate__(self, data: dict[str, Any]) -> None:
        self.state = load_state(data["state"])
        self.players = data["players"]
        self.reward = data["reward"]
        self.record = tuple((tuple(_event_from(e) for e in events), tuple(snaps))
                            for events, snaps in data["record"])
        self.legal = None


def _event_json(e: Event) -> list[Any]:
    return [e.turn, e.seat, list(e.action), e.full, e.public, e.also, e.shown, e.forced]


def _event_from(x: list[Any]) -> Event:
    turn, seat, action, full, public, also, shown, forced = x
    return Event(turn, seat, (action[0], action[1], action[2], action[3]), full, public, also,
                 shown, forced)


class FlamecraftGame(pyspiel.Game):  # type: ignore[misc]
    """The game for one choice of parameters."""

    def __init__(self, params: dict[str, Any] | None = None):
        merged = {**DEFAULT_PARAMS, **(params or {})}
        self.players = int(merged["players"])
        if not MIN_PLAYERS <= self.players <= MAX_PLAYERS:
            raise ValueError(f"players must be {MIN_PLAYERS}–{MAX_PLAYERS}")
        self.deck = str(merged["deck"])
        self.seed = int(merged["seed"])
        self.reward = check_reward_mode(str(merged["reward"]))
        self.companions = merged["companions"]
        if not isinstance(self.companions, bool):
            raise ValueError(f"companions must be a bool, not {self.companions!r}")
        cap = 1.0 if self.reward == "win" else float(MARGIN_CAP)
        info = pyspiel.GameInfo(
            num_distinct_actions=catalogue(self.players).size,
            max_chance_outcomes=0,
            num_players=self.players,
            min_utility=-cap,
            max_utility=cap,
            utility_sum=None,
            max_game_length=MAX_GAME_LENGTH,
        )
        super().__init__(GAME_TYPE, info, merged)
        self.initial = start(self.players, self.seed, self.deck, companions=self.companions)

    def new_initial_state(self) -> FlamecraftState:
        return FlamecraftState(self)

    def make_py_observer(self, iig_obs_type: Any = None,
                         params: dict[str, Any] | None = None) -> FlamecraftObserver:
        return FlamecraftObserver(self.players, iig_obs_type, params)


class FlamecraftState(pyspiel.State):  # type: ignore[misc]
    """One position: the engine state plus the record of decisions that led to it."""

    def __init__(self, game: FlamecraftGame):
        super().__init__(game)
        self._box = _Box(game.initial.copy(), game.players, game.reward)

    @property
    def engine_state(self) -> GameState:
        """The engine state (it holds every hidden card: for tests and debugging)."""
        return self._box.state

    def current_player(self) -> int:
        if self.is_terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        return to_act(self._box.state)

    def is_terminal(self) -> bool:
        box = self._box
        return box.state.over or len(box.record) >= MAX_GAME_LENGTH

    def _legal_actions(self, player: int) -> list[int]:
        return sorted(self._box.legal_now())

    def _apply_action(self, action: int) -> None:
        box = self._box
        s = box.state
        engine_action = box.legal_now().get(int(action))
        if engine_action is None:
            raise pyspiel.SpielError(f"action {action} is not legal now")
        before = [_private(s, p) for p in range(s.n)]
        events: list[Event] = []
        apply_in_place(s, engine_action, events)
        after = tuple(now if now != was else "" for was, now in
                      zip(before, (_private(s, p) for p in range(s.n)), strict=True))
        box.record = (*box.record, (tuple(events), after))
        box.legal = None

    def _action_to_string(self, player: int, action: int) -> str:
        box = self._box
        engine_action = box.legal_now().get(int(action)) if not box.state.over else None
        if engine_action is not None and player == to_act(box.state):
            return text(box.state, engine_action)
        section = catalogue(box.players).section_of(int(action))
        return f"{section.name}[{int(action) - section.start}]"

    def returns(self) -> list[float]:
        box = self._box
        if not self.is_terminal():
            return [0.0] * box.players
        return final_rewards(box.state, box.reward)

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> Any:
        """A state that ``player_id`` cannot tell from this one: every card it has not seen
        re-dealt at random (``hidden.determinize``), the record reduced to what it saw.

        For the seat to act (what IS-MCTS asks for) any re-deal will do. Another seat also
        sees which decision the acting seat is pondering (say, where to place a dragon, so
        it holds one that fits): re-deals are drawn until one agrees with that
        (``RESAMPLE_TRIES`` at most; in random play a few at most are needed)."""
        real = self._box.state
        seed = int(float(probability_sampler()) * 2**31)
        acting = to_act(real)
        want = (real.stack[-1][:2] if real.stack else (), view(real, player_id))
        for attempt in range(RESAMPLE_TRIES):
            sample = determinize(real, player_id, seed + attempt)
            if acting in (-1, player_id):
                break
            to_act(sample)
            if (sample.stack[-1][:2] if sample.stack else (), view(sample, player_id)) == want:
                break
        else:
            raise pyspiel.SpielError(f"no re-deal found that P{player_id + 1} cannot tell "
                                     f"from this state in {RESAMPLE_TRIES} tries")
        other = self.clone()
        box = other._box
        box.state = sample
        box.record = tuple(
            (tuple(e for e in events if e.seen_by(player_id) is not None),
             tuple(snap if p == player_id else "" for p, snap in enumerate(snaps)))
            for events, snaps in self._box.record)
        box.legal = None
        return other

    def information_state_record(self, player: int) -> str:
        """Every event so far as ``player`` saw it (``Event.seen_by``), one per line, with
        its own holdings after each of its changes; ``player`` -1 is the public side only."""
        seat = player if player >= 0 else None
        lines = []
        for events, snaps in self._box.record:
            for e in events:
                line = e.seen_by(seat)
                if line is not None:
                    lines.append(f"P{e.seat + 1}: {line}")
            if seat is not None and snaps[seat]:
                lines.append(f"you: {snaps[seat]}")
        return "\n".join(lines)

    def __str__(self) -> str:
        return _state_json(self._box.state)


class FlamecraftObserver:
    """OpenSpiel's Python observer: the observation (default) or the information state
    (``perfect_recall``), of one seat (private info SINGLE_PLAYER) or of the public only
    (private info NONE)."""

    def __init__(self, players: int, iig_obs_type: Any, params: dict[str, Any] | None):
        if params:
            raise ValueError(f"observation parameters not supported; passed {params}")
        if iig_obs_type is None:
            iig_obs_type = pyspiel.IIGObservationType(perfect_recall=False)
        if iig_obs_type.private_info == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ValueError("an observer of every seat's private cards is not offered")
        if not iig_obs_type.public_info:
            raise ValueError("an observer of private information alone is not offered")
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        self.private = iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
        self.layout = layout(players)
        self.tensor = np.zeros(self.layout.size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: FlamecraftState, player: int) -> None:
        observation_array(state.engine_state, player if self.private else None, self.tensor)

    def string_from(self, state: FlamecraftState, player: int) -> str:
        """The observation: the view as JSON. The information state: a digest of the view
        and of every event the seat saw (``information_state_record``), short enough to key
        IS-MCTS's tables; equal digests mean equal records and views."""
        seen = view(state.engine_state, player if self.private else None)
        board = json.dumps(seen, sort_keys=True, ensure_ascii=False)
        if not self.perfect_recall:
            return board
        record = state.information_state_record(player if self.private else -1)
        digest = hashlib.blake2b(f"{record}\n{board}".encode(), digest_size=16).hexdigest()
        who = f"P{player + 1}" if self.private else "public"
        return f"{who} t{state.engine_state.turn} {digest}"


pyspiel.register_game(GAME_TYPE, FlamecraftGame)
