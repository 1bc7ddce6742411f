"""Flamecraft as an OpenSpiel game, registered as ``python_flamecraft`` on import.

Why: OpenSpiel brings search and game-theory algorithms (MCTS, IS-MCTS, CFR-style learners)
and its conformance tests. Parameters: ``players`` (1–5; 1 is a solo game, design §7),
``companions`` (the optional Companion module, design §6), ``deck`` ("purple"/"golden"),
``first_player`` (-1: drawn at random, as the rules say; or a seat) and ``reward``
("win"/"margin", as in PettingZoo; in solo both are measured against the solo rating,
``encoding.final_rewards``).

Chance: EXPLICIT_STOCHASTIC. The game starts with the deal as explicit chance nodes
(``setup_game.DealBuilder``): a Shop of each pile, the Shop deck's order, the Artisan Dragons
left out, the Artisan, Fancy and Enchantment decks' orders, the Companions offered and the
first player, each drawn uniformly from what is still possible — the distribution of the
engine's seeded shuffles (``tests/test_deal.py``), and after the deal the game has no other
randomness. So no parameter fixes the deal: tree-walking algorithms see chance, not the
deck. ``deal_seed(state, seed)`` plays the chance nodes of a seeded deal (the engine's
``start(players, seed)``), for reproducible experiments.

Hidden information: the public event stream (``core/events.py``) decides what each seat
reads of every action; a seat's information state is every event it saw, its own holdings
after each change, and its view now. ``resample_from_infostate`` re-deals every card the
seat has never seen (``hidden.public_cards``, ``private_cards``) and replays the game on that
deal, steering the other seats' hidden choices so that the seat sees exactly the same: the
state returned is reached from the initial state by its own history. Samples are consistent
and reachable, but not weighted by the exact posterior (the other seats' hidden choices are
drawn uniformly).

Actions are the indices of ``encoding.catalogue(players)`` (chance outcomes: catalog indices
of the card drawn, or the seat); observation tensors are ``encoding.observation``; the
information-state tensor adds the seat's own past choices and a fingerprint of its whole
information state (so equal tensors mean equal information states). Strings: the
observation is the seat's view (JSON); the information state a short digest (IS-MCTS keys
its tables by it) of ``information_state_record`` plus the view. The observer answers every
``IIGObservationType`` (the public and private parts apart too: ``FlamecraftObserver``), and
``tests/data/playthroughs/`` keeps OpenSpiel's playthrough of a solo game. ``FlamecraftBot`` is
one of the project's bots as a ``pyspiel.Bot`` (it reads its seat's view only). Serialization
pickles the engine state through the project's own JSON. A game that reaches
``MAX_GAME_LENGTH`` decisions (never seen in random play) ends there with no result: returns
0 for every seat, as the environments' truncation gives (``was_cut`` tells it).

    import flamecraft.research.openspiel_game  # registers the game
    game = pyspiel.load_game("python_flamecraft", {"players": 3})
    state = deal_seed(game.new_initial_state(), 7)   # or play the chance nodes yourself
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Sequence
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python import policy as policy_lib

from ..ai import Bot, Seat, make_play_bot
from ..core import actions as A
from ..core import kinds as K
from ..core.actions import Action
from ..core.board import CATALOG
from ..core.engine import apply_in_place, describe_decision, legal_actions, text, to_act
from ..core.errors import FlamecraftError
from ..core.events import Event
from ..core.frames import D_ARTISAN_LOOK, D_KEEP_DRAWN_FANCY
from ..core.hidden import (
    SEEN_ARTISAN,
    SEEN_ENCHANTMENT,
    SEEN_FANCY,
    SEEN_SHOP,
    private_cards,
    public_cards,
)
from ..core.kinds import ACTION_KINDS
from ..core.rng import seed_state
from ..core.serialize import load_state, state_to_json
from ..core.setup_game import (
    ARTISAN,
    COMPANION,
    DRAW_KINDS,
    ENCHANTMENT,
    FANCY,
    SHOP,
    DealBuilder,
    artisan_pool,
    draw_deal,
    new_game,
    outcomes_of,
    removed_per_type,
)
from ..core.state import GameState, Options
from ..core.variant import variant_name, variant_of
from ..core.view import view
from .cut import DEFAULT_MAX_DECISIONS
from .encoding import (
    ENCODING_VERSION,
    ENV_VERSION,
    MARGIN_CAP,
    MAX_PLAYERS,
    MIN_PLAYERS,
    catalogue,
    check_reward_mode,
    final_rewards,
    layout,
)
from .observation import observation_array

# The cut of a game that has not ended by itself, in decisions: the environments' max_decisions.
MAX_GAME_LENGTH = DEFAULT_MAX_DECISIONS
RESAMPLE_TRIES = 200
OWN_HISTORY = 512  # own past choices kept in the information-state tensor (then cut)
FINGERPRINT = 16  # bytes of the information state's digest in the tensor
DEFAULT_PARAMS: dict[str, Any] = {"players": 2, "deck": "purple", "reward": "win",
                                  "companions": False, "first_player": -1, "variant": ""}
MAX_CHANCE_OUTCOMES = max(len(CATALOG.shops), len(CATALOG.artisans), len(CATALOG.fancies),
                          len(CATALOG.enchantments), len(CATALOG.companions), MAX_PLAYERS)

GAME_TYPE = pyspiel.GameType(
    short_name="python_flamecraft",
    long_name="Python Flamecraft",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
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
    # The public and private observation strings (public_info without private info, and
    # private info without public_info: ``FlamecraftObserver``).
    provides_factored_observation_string=True,
)


def _game_type(players: int, reward: str) -> Any:
    """The registered type, but zero-sum for 2 players with ``reward="margin"`` (one seat's
    lead is the other's deficit, clipped alike), so that OpenSpiel's ``exploitability``,
    which needs a zero-sum game, accepts it. "win" is general-sum: a shared win pays both."""
    if players != 2 or reward != "margin":
        return GAME_TYPE
    fields = {name: getattr(GAME_TYPE, name) for name in (
        "short_name", "long_name", "dynamics", "chance_mode", "information", "reward_model",
        "max_num_players", "min_num_players", "provides_information_state_string",
        "provides_information_state_tensor", "provides_observation_string",
        "provides_observation_tensor", "parameter_specification",
        "provides_factored_observation_string")}
    return pyspiel.GameType(utility=pyspiel.GameType.Utility.ZERO_SUM, **fields)

# One decision: the events it made (its own, then the forced ones it led to: what each seat
# reads of them is ``Event.seen_by``, the one rule of core/events.py), and each seat's private
# holdings after it when they changed, else "". The deal's end is an entry with no events.
Entry = tuple[tuple[Event, ...], tuple[str, ...]]
Seen = tuple[frozenset[int], ...]

# Decisions that show their player cards no other place holds (``hidden.private_cards``).
_SHOWING = frozenset((D_KEEP_DRAWN_FANCY, D_ARTISAN_LOOK))
_CHANCE = int(pyspiel.PlayerId.CHANCE)  # looked up once: pybind attributes are slow
_TERMINAL = int(pyspiel.PlayerId.TERMINAL)

_CARD_NAMES: dict[int, Sequence[Any]] = {
    SHOP: CATALOG.shops, ARTISAN: CATALOG.artisans, FANCY: CATALOG.fancies,
    ENCHANTMENT: CATALOG.enchantments, COMPANION: CATALOG.companions}


def _state_json(s: GameState) -> str:
    """The project's state JSON (``serialize.state_to_json``), compact: it is written at
    every clone check and serialization, and the indented form is several times slower."""
    return json.dumps(state_to_json(s), ensure_ascii=False)


def _private(s: GameState, p: int) -> str:
    """What seat p alone holds: its hand and unscored Fancy Dragons (ids, sorted)."""
    hand = sorted(CATALOG.artisans[a].id for a in s.hand[p])
    fancy = sorted(CATALOG.fancies[f].id for f in s.fancy[p])
    return f"hand {','.join(hand)}; fancy {','.join(fancy)}"


def _holdings(s: GameState) -> list[tuple[list[int], list[int]]]:
    """Each seat's hand and Fancy Dragons as they lie (copies), to compare after a step."""
    return [(s.hand[p][:], s.fancy[p][:]) for p in range(s.n)]


def _changed(s: GameState, p: int, hand: list[int], fancy: list[int]) -> bool:
    """Whether seat p's hand or Fancy Dragons hold other cards than ``hand`` and ``fancy``
    (a new order of the same cards is no change). Most steps leave both lists as they were,
    which is answered without sorting."""
    if s.hand[p] == hand and s.fancy[p] == fancy:
        return False
    return sorted(s.hand[p]) != sorted(hand) or sorted(s.fancy[p]) != sorted(fancy)


class _Box:
    """The deal, the engine state and the record of one OpenSpiel state.

    OpenSpiel clones Python states with ``copy.deepcopy`` and serializes them with pickle;
    this box makes a clone a cheap ``GameState.copy`` and a copy of the record's list (its
    entries are immutable and shared; a step appends to the list, where rebuilding a tuple
    cost a copy of the whole record at every step) and pickles the engine state as the
    project's JSON. While the deal is drawn, ``state``
    is None and ``deal`` holds the draws so far."""

    def __init__(self, options: Options, reward: str):
        self.options = options
        self.players = options.players
        self.reward = reward
        self.deal = DealBuilder(options)
        self.state: GameState | None = None
        self.record: list[Entry] = []  # grown in place: a clone copies it (``copy``)
        self.own: list[list[int]] = [[] for _ in range(self.players)]  # each seat's choices
        self.public: frozenset[int] = frozenset()  # seen face up by everyone
        self.private: Seen = tuple(frozenset() for _ in range(self.players))  # by one seat
        self.legal: dict[int, Action] | None = None

    def legal_now(self) -> dict[int, Action]:
        if self.legal is None:
            assert self.state is not None
            self.legal = catalogue(self.players).legal(self.state)
        return self.legal

    def see(self, changed: Sequence[bool] | None = None) -> None:
        """Adds what each seat sees now to what it has ever seen (sets grow only when a
        card shows up for the first time: most steps add nothing). ``changed`` (when given)
        says which seats' hand or Fancy Dragons may differ from the last call's: the others'
        private cards are what was already added, unless a pending choice shows them cards
        (``hidden.private_cards`` reads those from the stack)."""
        s = self.state
        assert s is not None
        public = public_cards(s)
        if not public <= self.public:
            self.public = self.public | public
        private = self.private
        shown = {f[1] for f in s.stack if f[0] in _SHOWING} if changed is not None else set()
        for p in range(self.players):
            if changed is not None and not changed[p] and p not in shown:
                continue
            now = private_cards(s, p)
            if not now <= private[p]:
                grown = list(private)
                grown[p] = private[p] | now
                private = tuple(grown)
        self.private = private

    def seen(self, p: int) -> frozenset[int]:
        """Every card seat p has ever seen (``hidden.public_cards`` and ``private_cards``,
        accumulated over the game)."""
        return self.public | self.private[p]

    def copy(self) -> _Box:
        other = _Box.__new__(_Box)
        other.__dict__.update(self.__dict__)
        other.deal = self.deal.copy()
        other.state = self.state.copy() if self.state is not None else None
        other.record = self.record[:]  # the entries are immutable: shared
        other.own = [own[:] for own in self.own]
        return other

    def __deepcopy__(self, memo: dict[int, Any]) -> _Box:
        return self.copy()

    def __getstate__(self) -> dict[str, Any]:
        return {"options": [self.players, self.options.deck, self.options.companions,
                            self.options.first_player, variant_name(self.options.variant)],
                "reward": self.reward, "deal": self.deal.drawn, "step": self.deal.step,
                "state": None if self.state is None else _state_json(self.state),
                "record": [[[_event_json(e) for e in events], list(snaps)]
                           for events, snaps in self.record],
                "own": [list(o) for o in self.own],
                "public": sorted(self.public),
                "private": [sorted(seen) for seen in self.private]}

    def __setstate__(self, data: dict[str, Any]) -> None:
        players, deck, companions, first, *rest = data["options"]
        variant = variant_of(rest[0] if rest else "")
        fresh = _Box(Options(players, deck, (), companions, first, variant), data["reward"])
        self.__dict__.update(fresh.__dict__)
        self.deal.drawn = {k: list(v) for k, v in data["deal"].items()}
        self.deal.step = data["step"]
        self.state = None if data["state"] is None else load_state(data["state"])
        self.record = [(tuple(_event_from(e) for e in events), tuple(snaps))
                       for events, snaps in data["record"]]
        self.own = [list(o) for o in data["own"]]
        self.public = frozenset(data["public"])
        self.private = tuple(frozenset(seen) for seen in data["private"])


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
        self.reward = check_reward_mode(str(merged["reward"]))
        companions = merged["companions"]
        if not isinstance(companions, bool):
            raise ValueError(f"companions must be a bool, not {companions!r}")
        first = int(merged["first_player"])
        if not -1 <= first < self.players:
            raise ValueError(f"first_player must be -1 (at random) or a seat from 0 to "
                             f"{self.players - 1}, not {first}")
        try:  # a research variant (core/variant.py): "" is the rules
            variant = variant_of(str(merged["variant"]))
        except FlamecraftError as exc:
            raise ValueError(str(exc)) from None
        self.options = Options(self.players, str(merged["deck"]), (), companions,
                               None if first < 0 else first, variant)
        try:
            DealBuilder(self.options)  # checks the deck name and the variant's deal
        except FlamecraftError as exc:
            raise ValueError(str(exc)) from None
        cap = 1.0 if self.reward == "win" else float(MARGIN_CAP)
        info = pyspiel.GameInfo(
            num_distinct_actions=catalogue(self.players).size,
            max_chance_outcomes=MAX_CHANCE_OUTCOMES,
            num_players=self.players,
            min_utility=-cap,
            max_utility=cap,
            utility_sum=0.0 if self.players == 2 and self.reward == "margin" else None,
            max_game_length=MAX_GAME_LENGTH,
        )
        super().__init__(_game_type(self.players, self.reward), info, merged)
        self.variant = variant  # the research variant (core/variant.py); RULES: the game
        # The version of the catalogue (the actions) and the observation vector (docs/rl.md).
        self.encoding_version = ENCODING_VERSION
        # The version of the game's dynamics and encoding together: flamecraft_v2's (docs/rl.md).
        self.env_version = ENV_VERSION

    def new_initial_state(self) -> FlamecraftState:
        return FlamecraftState(self)

    def information_state_tensor_size(self) -> int:
        return information_state_size(self.players)

    def make_py_observer(self, iig_obs_type: Any = None,
                         params: dict[str, Any] | None = None) -> FlamecraftObserver:
        return FlamecraftObserver(self.players, iig_obs_type, params)


def information_state_size(players: int) -> int:
    """The observation, the seat's own past choices, and the information state's digest."""
    return layout(players).size + OWN_HISTORY + FINGERPRINT


class FlamecraftState(pyspiel.State):  # type: ignore[misc]
    """One position: the deal so far, or the engine state and the record that led to it."""

    def __init__(self, game: FlamecraftGame):
        super().__init__(game)
        self._box = _Box(game.options, game.reward)

    @property
    def engine_state(self) -> GameState:
        """The engine state (it holds every hidden card: for tests and debugging); an error
        while the deal is still being drawn."""
        s = self._box.state
        if s is None:
            raise pyspiel.SpielError("the deal is still being drawn: no engine state yet")
        return s

    def is_chance_node(self) -> bool:
        return self._box.state is None

    def current_player(self) -> int:
        # OpenSpiel asks this several times a step: is_terminal() is inlined.
        box = self._box
        s = box.state
        if s is None:
            return _CHANCE
        if s.over or len(box.record) > MAX_GAME_LENGTH:
            return _TERMINAL
        return to_act(s)

    def is_terminal(self) -> bool:
        box = self._box
        return box.state is not None and (box.state.over or len(box.record) > MAX_GAME_LENGTH)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        box = self._box
        if box.state is not None:
            raise pyspiel.SpielError("chance_outcomes: this is not a chance node")
        outcomes = box.deal.outcomes()
        return [(o, 1.0 / len(outcomes)) for o in outcomes]

    def _legal_actions(self, player: int) -> list[int]:
        box = self._box
        if box.state is None:
            return box.deal.outcomes()
        if player != to_act(box.state) or self.is_terminal():
            return []
        return sorted(box.legal_now())

    def _apply_action(self, action: int) -> None:
        box = self._box
        if box.state is None:
            try:
                box.deal.draw(int(action))
            except FlamecraftError as exc:
                raise pyspiel.SpielError(f"chance outcome {action}: {exc}") from None
            if box.deal.done:
                self._begin()
            return
        s = box.state
        if self.is_terminal():
            raise pyspiel.SpielError(f"action {action}: the game is over")
        engine_action = box.legal_now().get(int(action))
        if engine_action is None:
            raise pyspiel.SpielError(f"action {action} is not legal now: P{to_act(s) + 1} "
                                     f"is choosing {describe_decision(s)}")
        actor = to_act(s)
        before = _holdings(s)
        events: list[Event] = []
        apply_in_place(s, engine_action, events)
        # Whose hand or Fancy Dragons are not as they lay (a new order of the same cards
        # counts here: for ``see`` that only costs a needless look).
        changed = [s.hand[p] != hand or s.fancy[p] != fancy
                   for p, (hand, fancy) in enumerate(before)]
        if not any(changed):  # most steps: nobody's cards changed
            after: tuple[str, ...] = ("",) * box.players
        else:
            after = tuple(_private(s, p) if _changed(s, p, hand, fancy) else ""
                          for p, (hand, fancy) in enumerate(before))
        box.record.append((tuple(events), after))
        box.own[actor].append(int(action))
        box.legal = None
        box.see(changed)

    def _begin(self) -> None:
        """The deal is complete: the engine takes over, and each seat is told its cards."""
        box = self._box
        box.state = box.deal.game()
        to_act(box.state)
        box.record = [((), tuple(_private(box.state, p) for p in range(box.players)))]
        box.see()

    def _action_to_string(self, player: int, action: int) -> str:
        box = self._box
        if box.state is None:
            kind = box.deal.kind
            if kind in _CARD_NAMES and 0 <= action < len(_CARD_NAMES[kind]):
                return f"deal {DRAW_KINDS[kind]} {_CARD_NAMES[kind][action].name}"
            return f"deal {DRAW_KINDS[kind]} {action}"
        engine_action = box.legal_now().get(int(action)) if not box.state.over else None
        if engine_action is not None and player == to_act(box.state):
            return text(box.state, engine_action)
        section = catalogue(box.players).section_of(int(action))
        return f"{section.name}[{int(action) - section.start}]"

    def returns(self) -> list[float]:
        """The final rewards once the game is over; 0 for every seat before, and for a game
        cut at ``MAX_GAME_LENGTH`` (a cut game has no result: the outcome of a cut in every
        interface, docs/rl.md "Truncation")."""
        box = self._box
        if box.state is None or not box.state.over:  # the deal, a game going on, or a cut
            return [0.0] * box.players
        return final_rewards(box.state, box.reward)

    def was_cut(self) -> bool:
        """Whether the game ended at ``MAX_GAME_LENGTH`` decisions rather than by itself
        (OpenSpiel has no truncation flag: this is it)."""
        box = self._box
        return box.state is not None and not box.state.over and len(box.record) > MAX_GAME_LENGTH

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> Any:
        """A state ``player_id`` cannot tell from this one, reached from the initial state by
        its own history: the cards the seat has never seen re-dealt at random, and the game
        replayed on that deal (``_replay_for``). Tries ``RESAMPLE_TRIES`` deals at most."""
        box = self._box
        if box.state is None:
            # During the deal nobody has seen anything: any continuation of the draws is
            # as good as this one, but the draws so far are the history: keep them.
            return self.clone()
        rng = random.Random(int(float(probability_sampler()) * 2**53))
        for _ in range(RESAMPLE_TRIES):
            other = _replay_for(self, player_id, rng)
            if other is not None:
                return other
        raise pyspiel.SpielError(f"no re-deal found that P{player_id + 1} cannot tell from "
                                 f"this state in {RESAMPLE_TRIES} tries")

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

    def private_record(self, player: int) -> str:
        """What ``player`` alone read: the events it read otherwise than the table did (its
        own Fancy Dragon kept by name, the card it drew, its declines …) and its holdings
        after each change, one per line (the private-information observers' history)."""
        lines = []
        for events, snaps in self._box.record:
            for e in events:
                line = e.seen_by(player)
                if line is not None and line != e.seen_by(None):
                    lines.append(f"P{e.seat + 1}: {line}")
            if snaps[player]:
                lines.append(f"you: {snaps[player]}")
        return "\n".join(lines)

    def __str__(self) -> str:
        box = self._box
        if box.state is None:
            return f"dealing: {json.dumps(box.deal.drawn, sort_keys=True)}"
        return _state_json(box.state)


def deal_seed(state: FlamecraftState, seed: int) -> FlamecraftState:
    """Plays the chance nodes of a new state with the deal of ``seed`` — the game
    ``flamecraft.start(players, seed)`` sets up (the first player too, unless the game's
    parameters fix it) — and returns the state, for reproducible experiments."""
    box = state._box
    if box.state is not None or box.deal.step:
        raise pyspiel.SpielError("deal_seed needs a state whose deal has not begun")
    options = box.options
    deal, _ = draw_deal(options, seed_state(seed))
    first = new_game(options, seed).first_player
    for outcome in outcomes_of(options, deal, first):
        state.apply_action(outcome)
    return state


# ---------------------------------------------------------------- resampling


def _redeal(box: _Box, player: int, rng: random.Random) -> dict[str, list[int]]:
    """The deal's draws with every card ``player`` has never seen dealt again at random
    into the places such cards hold: a Shop of each pile not yet seen, the dragons left out
    (by type), and the unseen places of each deck."""
    drawn = {k: v[:] for k, v in box.deal.drawn.items()}
    seen = box.seen(player)

    # Shops: the unseen pick of each Good pile, the unseen picks of the other pile.
    from ..core.setup_game import shop_piles

    piles = shop_piles()
    for index, pile in enumerate(piles):
        key = f"pile{index}"
        if key not in drawn:  # a research variant takes no Shop of this pile
            continue
        known = [c for c in drawn[key] if SEEN_SHOP + c in seen]
        pool = [c for c in pile if SEEN_SHOP + c not in seen]
        rng.shuffle(pool)
        drawn[key] = known + pool[:len(drawn[key]) - len(known)]
    chosen = [c for i in range(len(piles)) for c in drawn.get(f"pile{i}", [])]
    _fill_unseen(drawn, "shop_deck", chosen, lambda c: SEEN_SHOP + c in seen, rng)

    # Artisan Dragons: those left out are never seen; re-pick them by type from the unseen.
    per_type = removed_per_type(box.options)
    unseen_art = sorted(c for cards in artisan_pool(box.options) for c in cards
                        if SEEN_ARTISAN + c not in seen)
    left_out: list[int] = []
    if per_type:
        for t in range(6):
            pool = [c for c in unseen_art if CATALOG.artisans[c].type == t]
            rng.shuffle(pool)
            drawn[f"type{t}"] = pool[:per_type]
            left_out.extend(pool[:per_type])
    out = set(left_out)
    _fill_unseen(drawn, "artisan_deck", [c for c in unseen_art if c not in out]
                 + [c for c in drawn["artisan_deck"] if SEEN_ARTISAN + c in seen],
                 lambda c: SEEN_ARTISAN + c in seen, rng)
    _fill_unseen(drawn, "fancy_deck", drawn["fancy_deck"],
                 lambda c: SEEN_FANCY + c in seen, rng)
    _fill_unseen(drawn, "ench_deck", drawn["ench_deck"],
                 lambda c: SEEN_ENCHANTMENT + c in seen, rng)
    return drawn


def _fill_unseen(drawn: dict[str, list[int]], key: str, cards: Sequence[int],
                 known: Any, rng: random.Random) -> None:
    """Keeps the seen cards of deck ``key`` in their places and deals the unseen ones of
    ``cards`` at random into the other places."""
    if key not in drawn:  # a research variant without this deck
        return
    order = drawn[key]
    unseen = sorted(c for c in cards if not known(c))
    rng.shuffle(unseen)
    deal = iter(unseen)
    drawn[key] = [c if known(c) else next(deal) for c in order]


def _replay_for(real: FlamecraftState, player: int,
                rng: random.Random) -> FlamecraftState | None:
    """One try at a resample: a fresh state dealt the re-dealt draws, then the game played
    on so that ``player`` sees exactly what it saw (``_follow``). None when the replay
    cannot follow the true game."""
    box = real._box
    assert box.state is not None
    drawn = _redeal(box, player, rng)
    other: FlamecraftState = real.get_game().new_initial_state()
    obox = other._box
    for _kind, _count, target in obox.deal.plan:
        for outcome in drawn.get(target, []):
            if outcome not in obox.deal.outcomes():
                return None
            other.apply_action(outcome)
    truth = [e for events, _ in box.record for e in events]
    seen = box.seen(player)
    cat = catalogue(box.players)
    at = 0  # the next event of the true game to follow
    done = 0  # the replay's events accounted for
    while True:
        s = obox.state
        assert s is not None
        replay = [e for events, _ in obox.record for e in events]
        for e in replay[done:]:  # what the player saw of the replay must be what it saw
            line = e.seen_by(player)
            if line is None:
                continue
            while at < len(truth) and truth[at].seen_by(player) is None:
                at += 1  # a decline of another seat that the replay did not repeat
            if at >= len(truth) or (truth[at].seat, truth[at].seen_by(player)) != (e.seat,
                                                                                 line):
                return None
            at += 1
        done = len(replay)
        if at >= len(truth):
            break
        if s.over or len(obox.record) > MAX_GAME_LENGTH:
            return None
        nxt = truth[at]
        choice = _follow(s, nxt, player, seen, rng)
        if choice is None:
            if nxt.seen_by(player) is None:
                at += 1  # a decline the re-deal does not offer here: nobody saw it
                continue
            return None
        action, follows = choice
        other.apply_action(cat.encode(s, action))
        if follows and nxt.seen_by(player) is None:
            at += 1  # followed unseen: no event of the replay will account for it
    # Where the true game rests: the same seat to act, the same view and record.
    s, t = obox.state, box.state
    assert s is not None
    if to_act(s) != to_act(t) or view(s, player) != view(t, player):
        return None
    if other.information_state_record(player) != real.information_state_record(player):
        return None
    return other


def _hidden_card(kind: int) -> int:
    """For a choice about a hidden card (an action kind the table reads masked, its
    ``public`` text: keep or put back a Fancy Dragon, keep, discard or gift an Artisan
    Dragon), the base of its card's number among the cards seen; else -1."""
    declared = ACTION_KINDS[kind]
    if not declared.public or not declared.args:
        return -1
    return SEEN_FANCY if declared.args[0].type == K.FANCY else SEEN_ARTISAN


def _follow(s: GameState, nxt: Event, player: int, seen: frozenset[int],
            rng: random.Random) -> tuple[Action, bool] | None:
    """The replay's choice at its decision, and whether it follows the true event ``nxt``
    (None when it cannot go on). The player's own choices, and every choice it saw in full,
    are made as in the true game. Another seat's choice about hidden cards is made as in the
    true game when the card is one the player has seen (it must be where the player saw
    it), else as one of the same kind about a card the player has never seen, at random. A
    decision only the re-deal offers (say, a Sun Dragon now met beside a forced action) is
    answered unseen: the action the true game took by itself, or a decline."""
    q = to_act(s)
    options = legal_actions(s)
    action = nxt.action
    if nxt.seat == q:
        kind = action[0]
        base = _hidden_card(kind)
        hidden = (q != player and base >= 0 and nxt.also != player
                  and base + action[1] not in seen)
        if not hidden and action in options:
            return action, True
        if hidden:
            at = ACTION_KINDS[kind].seat_at()  # to the same seat, if it names one
            same = [a for a in options if a[0] == kind and base + a[1] not in seen
                    and (at < 0 or a[at] == action[at])]
            if same:
                return rng.choice(same), True
    if q != player:
        plain = [a for a in options if a[0] != A.REVEAL]
        declines = [a for a in plain if ACTION_KINDS[a[0]].decline]
        if declines:
            return declines[0], False
    return None


def private_view(s: GameState, seat: int) -> dict[str, Any]:
    """What seat ``seat``'s view (``view.view``) holds beyond the public one: the entries
    that differ (its own hand and Fancy Dragons, the decision it faces and its legal
    actions, who observes), its player entry cut to the parts that differ. The public view
    with these put back is the seat's view (tested), so the split leaves nothing out."""
    mine, public = view(s, seat), view(s, None)
    out = {key: value for key, value in mine.items()
           if key != "players" and public.get(key) != value}
    me, them = mine["players"][seat], public["players"][seat]
    out["player"] = {key: value for key, value in me.items() if them.get(key) != value}
    return out


def private_size(players: int) -> int:
    """The values of one seat's private part: its decision kind and its own block."""
    lay = layout(players)
    return lay.decisions + lay.size - lay.own


def _json(x: Any) -> str:
    return json.dumps(x, sort_keys=True, ensure_ascii=False)


def _hex(text: str) -> bytes:
    return hashlib.blake2b(text.encode(), digest_size=FINGERPRINT).digest()


class FlamecraftObserver:
    """OpenSpiel's Python observer, for every ``IIGObservationType``.

    With the public information: of one seat (private info SINGLE_PLAYER) the observation
    vector, or with ``perfect_recall`` the information-state tensor; of the public only
    (NONE) the same with nobody's hidden cards, alike for every seat. Without it (what
    OpenSpiel's playthroughs ask as the "private observation") a seat's private part alone:
    the kind of decision it faces and its own block of the observation vector (hand, fired
    hand dragons, unscored Fancy Dragons), with ``perfect_recall`` also a digest of every
    event it read otherwise than the table did and its holdings after each change.
    ALL_PLAYERS is the public part (when asked) and every seat's private part, seat 0 first;
    the decks stay hidden, as they are no seat's. NONE without the public information is
    empty (a tensor of size 0, the string "")."""

    def __init__(self, players: int, iig_obs_type: Any, params: dict[str, Any] | None):
        if params:
            raise ValueError(f"observation parameters not supported; passed {params}")
        if iig_obs_type is None:
            iig_obs_type = pyspiel.IIGObservationType(perfect_recall=False)
        self.players = players
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        self.public = bool(iig_obs_type.public_info)
        kind = iig_obs_type.private_info
        self.private = kind == pyspiel.PrivateInfoType.SINGLE_PLAYER
        self.all_players = kind == pyspiel.PrivateInfoType.ALL_PLAYERS
        self.layout = layout(players)
        # The classic shape (the observation vector, or the information-state tensor): one
        # seat's, or the public side's for NONE and as the public part of ALL_PLAYERS.
        self.classic = self.public
        self.seat_view = self.public and self.private  # the classic shape of one seat
        pieces: list[tuple[str, int]] = []
        if self.classic:
            size = (information_state_size(players) if self.perfect_recall
                    else self.layout.size)
            pieces.append(("observation", size))
        # Seats whose private part comes in pieces of its own.
        if self.all_players:
            self.parts = "all"
        else:
            self.parts = "one" if self.private and not self.public else ""
        count = players if self.parts == "all" else 1 if self.parts else 0
        for k in range(count):
            suffix = f"_{k}" if self.parts == "all" else ""
            pieces.append((f"private{suffix}", private_size(players)))
            if self.perfect_recall:
                pieces.append((f"digest{suffix}", FINGERPRINT))
        self.tensor = np.zeros(sum(size for _, size in pieces), np.float32)
        self.dict: dict[str, np.ndarray] = {}
        at = 0
        for name, size in pieces:
            self.dict[name] = self.tensor[at:at + size]
            at += size
        self._scratch = np.zeros(self.layout.size, np.float32)

    def _seats(self, player: int) -> list[int]:
        if self.parts == "all":
            return list(range(self.players))
        return [player] if self.parts else []

    def set_from(self, state: FlamecraftState, player: int) -> None:
        box = state._box
        self.tensor.fill(0.0)
        if self.classic:
            self._set_classic(state, player, self.dict["observation"])
        if box.state is None:
            return
        for k, seat in enumerate(self._seats(player)):
            suffix = f"_{k}" if self.parts == "all" else ""
            observation_array(box.state, seat, self._scratch)
            n, lay = self.players, self.layout
            piece = self.dict[f"private{suffix}"]
            piece[:lay.decisions] = self._scratch[2 * n:2 * n + lay.decisions]
            piece[lay.decisions:] = self._scratch[lay.own:]
            if self.perfect_recall:
                digest = _hex(self._private_full(state, seat))
                self.dict[f"digest{suffix}"][:] = np.frombuffer(digest, np.uint8) / 255.0

    def _set_classic(self, state: FlamecraftState, player: int, out: np.ndarray) -> None:
        box = state._box
        seat = player if self.seat_view else None
        if box.state is not None:
            observation_array(box.state, seat, out[:self.layout.size])
        if not self.perfect_recall:
            return
        base = self.layout.size
        if seat is not None:
            size = catalogue(box.players).size
            mine = box.own[seat][:OWN_HISTORY]
            out[base:base + len(mine)] = [(index + 1) / size for index in mine]
        digest = self._digest(state, player)
        out[base + OWN_HISTORY:] = np.frombuffer(digest, np.uint8) / 255.0

    def _digest(self, state: FlamecraftState, player: int) -> bytes:
        box = state._box
        seat = player if self.seat_view else None
        if box.state is None:
            full = f"dealing {player if seat is not None else 'public'}"
        else:
            board = _json(view(box.state, seat))
            record = state.information_state_record(player if seat is not None else -1)
            full = f"{record}\n{board}"
        return _hex(full)

    def _private_full(self, state: FlamecraftState, seat: int) -> str:
        """What a private perfect-recall piece digests: the seat's private record and its
        private part now."""
        s = state._box.state
        now = _json(private_view(s, seat)) if s is not None else "dealing"
        return f"{state.private_record(seat)}\n{now}"

    def string_from(self, state: FlamecraftState, player: int) -> str:
        """The observation: the view as JSON (the public part, then the private parts, for
        the factored observers). The information state: a digest of the view and of every
        event the seat saw (``information_state_record``), short enough to key IS-MCTS's
        tables; equal digests mean equal records and views."""
        box = state._box
        parts: list[str] = []
        if self.classic:
            parts.append(self._classic_string(state, player))
        for seat in self._seats(player):
            if box.state is None:
                parts.append("dealing")
            elif self.perfect_recall:
                parts.append(f"P{seat + 1} private t{box.state.turn} "
                             f"{_hex(self._private_full(state, seat)).hex()}")
            else:
                parts.append(_json(private_view(box.state, seat)))
        return " ".join(parts) if self.perfect_recall else "\n".join(parts)

    def _classic_string(self, state: FlamecraftState, player: int) -> str:
        box = state._box
        seat = player if self.seat_view else None
        if not self.perfect_recall:
            if box.state is None:
                return "dealing"
            return _json(view(box.state, seat))
        who = f"P{player + 1}" if seat is not None else "public"
        turn = box.state.turn if box.state is not None else -1
        return f"{who} t{turn} {self._digest(state, player).hex()}"


class FlamecraftBot(pyspiel.Bot):  # type: ignore[misc]
    """One of the project's bots (``flamecraft.ai``, by name or as an object) as a
    ``pyspiel.Bot`` for one seat of python_flamecraft, so OpenSpiel's ``evaluate_bots`` and
    its bot tools play it against theirs.

    It is given the state, as every OpenSpiel bot is, but what it reads is the seat's alone:
    each ``step`` hands the project's bot a ``Seat`` of its player (its view, its legal
    actions and samples of the hidden cards, as in every game of the project), and maps the
    chosen engine action to its catalogue index. ``isolated=True`` (with a name) runs the bot
    in a process of its own that receives only sealed seats (``ai.ProcessBot``). Seeded: all
    its randomness comes from ``random.Random(seed)``, renewed by ``restart`` and
    ``restart_at``, so a game replays exactly. The project's bots read the view anew at
    every decision and keep nothing between them, so ``inform_action`` has nothing to do."""

    def __init__(self, game: FlamecraftGame, player: int, bot: Any = "planner",
                 seed: int = 0, **options: Any):
        pyspiel.Bot.__init__(self)
        if not 0 <= player < game.players:
            raise ValueError(f"player must be a seat from 0 to {game.players - 1}, "
                             f"not {player}")
        if isinstance(bot, str):
            bot = make_play_bot(bot, **options)
        elif options:
            raise ValueError(f"options {sorted(options)} are for a bot given by name")
        if not isinstance(bot, Bot):
            raise TypeError(f"{bot!r} is not a bot of the project (choose(seat, rng))")
        self.bot = bot
        self.player = player
        self.seed = seed
        self.rng = random.Random(seed)
        self._catalogue = catalogue(game.players)

    def restart(self) -> None:
        self.rng = random.Random(self.seed)

    def restart_at(self, state: FlamecraftState) -> None:
        self.restart()

    def inform_action(self, state: FlamecraftState, player_id: int, action: int) -> None:
        """Nothing to remember: the bot reads its seat's view at each of its decisions."""

    def provides_policy(self) -> bool:
        return False

    def is_clonable(self) -> bool:
        return False

    def close(self) -> None:
        """Ends the bot's own process, for a bot made with ``isolated=True`` (else nothing)."""
        close = getattr(self.bot, "close", None)
        if callable(close):
            close()

    def step(self, state: FlamecraftState) -> int:
        """The catalogue index of the bot's choice for its seat (its seat must be to act)."""
        if state.current_player() != self.player:
            raise pyspiel.SpielError(f"the bot plays P{self.player + 1}, but "
                                     f"{state.current_player()} is to act")
        s = state.engine_state
        action = self.bot.choose(Seat(s, self.player), self.rng)
        return self._catalogue.encode(s, action)


class BotPolicy(policy_lib.Policy):  # type: ignore[misc]
    """One of the project's bots as an OpenSpiel ``Policy`` for every seat, so OpenSpiel's
    ``exploitability``, ``nash_conv`` and policy tools measure it (on a small variant, where
    they can walk the tree). Exploitability needs a policy that is a function of the
    information state: the bot gets a ``Seat`` (its view only, as ``FlamecraftBot``) and a
    generator seeded by ``seed`` and the information-state string, and its choice is kept
    per information state, so equal information states get the same action."""

    def __init__(self, game: FlamecraftGame, bot: Any = "greedy", seed: int = 0,
                 **options: Any):
        super().__init__(game, list(range(game.num_players())))
        self.bot = FlamecraftBot(game, 0, bot, seed, **options).bot
        self.seed = seed
        self._catalogue = catalogue(game.players)
        self._chosen: dict[str, int] = {}

    def action_probabilities(self, state: FlamecraftState,
                             player_id: int | None = None) -> dict[int, float]:
        player = state.current_player() if player_id is None else player_id
        key = state.information_state_string(player)
        action = self._chosen.get(key)
        if action is None:
            s = state.engine_state
            rng = random.Random(f"{self.seed}:{key}")
            action = self._catalogue.encode(s, self.bot.choose(Seat(s, player), rng))
            self._chosen[key] = action
        # Every legal action, the others at 0: OpenSpiel's tabular tools read a missing one
        # as "no probability given".
        out = dict.fromkeys(state.legal_actions(player), 0.0)
        out[action] = 1.0
        return out


pyspiel.register_game(GAME_TYPE, FlamecraftGame)
