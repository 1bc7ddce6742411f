"""Scenario builders for rule and card tests: move cards between places without breaking the
one-place-per-card invariant, then drive the engine by action texts."""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from typing import Any

from flamecraft import (
    GameState,
    apply,
    apply_in_place,
    legal_actions,
    parse_action,
    start,
    text,
    to_act,
)
from flamecraft.ai import Seat
from flamecraft.core.board import CATALOG
from flamecraft.core.invariants import problems
from flamecraft.core.state import EMPTY

A = CATALOG.artisan_by_id
S = CATALOG.shop_by_id
E = CATALOG.enchantment_by_id
F = CATALOG.fancy_by_id
GOODS = ("BREAD", "MEAT", "IRON", "POTION", "CRYSTAL", "PLANT")


def fresh(players: int = 2, seed: int = 0, deck: str = "purple",
          first_player: int = 0) -> GameState:
    """A game past setup (each player kept their first Fancy Dragon; the 4th and 5th players
    took Bread), waiting for the first player (fixed: seat 0 unless given) to visit a Shop."""
    s = start(players, seed, deck, first_player=first_player)
    while s.stack and s.stack[-1][0] != 1:  # until D_VISIT
        apply_in_place(s, legal_actions(s)[0])
    return s


def with_companion(cid: str, players: int = 2, seed: int = 0, p: int = 0) -> GameState:
    """A game with Companions (design §6) past setup, in which player p holds ``cid`` (set
    directly); seat 0 plays first."""
    from flamecraft.core.frames import D_VISIT

    s = start(players, seed, companions=True, first_player=0)
    while s.stack[-1][0] != D_VISIT:
        apply_in_place(s, legal_actions(s)[0])
    give_companion(s, cid, p)
    return s


def give_companion(s: GameState, cid: str, p: int) -> None:
    """Player p holds ``cid`` from now on: swapped with its holder, or with the box."""
    card = CATALOG.companion_by_id[cid]
    holder = s.companion.index(card) if card in s.companion else -1
    if holder >= 0:
        s.companion[holder], s.companion[p] = s.companion[p], s.companion[holder]
    else:
        s.companion_box.remove(card)
        s.companion_box.append(s.companion[p])
        s.companion[p] = card
    s.cache = None
    sound(s)


def texts(s: GameState) -> list[str]:
    return [text(s, a) for a in legal_actions(s)]


def end_turn(s: GameState) -> GameState:
    """Ends the turn of the seat to act, checking that nothing but its end is left: every turn
    ends at an `end turn` decision asked even alone (docs/rules.md, ruling 20), with the
    Sun Dragon reveals that may be made there."""
    left = texts(s)
    assert "end turn" in left, left
    assert all(t == "end turn" or t.startswith("reveal ") for t in left), left
    return do(s, "end turn")


def do(s: GameState, *typed: str) -> GameState:
    """Applies actions by their texts, in order (raises if one is not legal). A decision
    with one legal action that is not the one typed is answered first, as a person's
    interface answers it (a lone `do not place` asked because the hand is hidden: ruling 20),
    except the end of the turn, which a test ends itself (``end_turn``)."""
    for t in typed:
        while t not in texts(s) and len(legal_actions(s)) == 1 and texts(s) != ["end turn"]:
            apply_in_place(s, legal_actions(s)[0])
        apply_in_place(s, parse_action(s, t))
    return s


def _remove_artisan(s: GameState, dragon: int) -> None:
    for pile in (s.artisan_deck, s.park, s.removed, *s.hand):
        if dragon in pile:
            pile.remove(dragon)
            return
    index = s.slots.index(dragon)
    s.slots[index] = EMPTY


def to_hand(s: GameState, p: int, *dragon_ids: str) -> None:
    for d in dragon_ids:
        _remove_artisan(s, A[d])
        s.hand[p].append(A[d])
    s.cache = None


def to_slot(s: GameState, shop_id: str, slot: int, dragon_id: str) -> None:
    """Puts a dragon on a slot (0-based) of a Shop in Town, ignoring slot icons."""
    _remove_artisan(s, A[dragon_id])
    assert s.slots[S[shop_id] * 3 + slot] == EMPTY
    s.slots[S[shop_id] * 3 + slot] = A[dragon_id]
    s.cache = None


def to_park(s: GameState, *dragon_ids: str) -> None:
    for d in dragon_ids:
        _remove_artisan(s, A[d])
        s.park.append(A[d])
    s.cache = None


def clear_hand(s: GameState, p: int) -> None:
    """Returns p's hand to the bottom of the Artisan deck."""
    s.artisan_deck[0:0] = s.hand[p]
    s.hand[p] = []
    s.cache = None


def add_shop(s: GameState, shop_id: str) -> None:
    """Puts a Shop (from the Shop deck or the box) face up on an empty Town space."""
    shop = S[shop_id]
    if shop in s.town:
        return
    for pile in (s.shop_deck, s.shops_unused):
        if shop in pile:
            pile.remove(shop)
    s.town[s.town.index(EMPTY)] = shop
    s.cache = None


def set_goods(s: GameState, p: int, coins: int | None = None, **goods: int) -> None:
    """Sets p's Goods (by upper-case name; unnamed Goods become 0) and optionally Coins."""
    s.goods[p] = [goods.get(g, 0) for g in GOODS]
    if coins is not None:
        s.coins[p] = coins
    s.cache = None


def give_fancy(s: GameState, p: int, *fancy_ids: str) -> None:
    """Moves Fancy Dragons (from the deck or any player) into p's unscored Fancy Dragons."""
    for f in fancy_ids:
        card = F[f]
        for pile in (s.fancy_deck, *s.fancy, *s.scored):
            if card in pile:
                pile.remove(card)
        s.fancy[p].append(card)
    s.cache = None


def to_row(s: GameState, *ench_ids: str) -> None:
    """Puts Enchantments into the face-up row (taking them from the deck), keeping 5 there by
    sending the oldest row cards back to the bottom of the deck."""
    for e in ench_ids:
        card = E[e]
        if card in s.ench_row:
            continue
        s.ench_deck.remove(card)
        s.ench_row.append(card)
        s.ench_deck.insert(0, s.ench_row.pop(0))
    s.cache = None


def sound(s: GameState) -> None:
    assert problems(s) == []


# --- Scenario helpers for the card tests (Shop abilities, fire-ups, Fancy Dragons, casts) ---


def shop_name(shop_id: str) -> str:
    return CATALOG.shops[S[shop_id]].name


def gather(s: GameState, shop_id: str) -> GameState:
    """Visits a Shop and Gathers there. "gather" is typed only when offered: with nothing
    castable it is the only choice and the engine takes it by itself."""
    do(s, f"visit {shop_name(shop_id)}")
    if "gather" in texts(s):
        do(s, "gather")
    return s


def enchant(s: GameState, shop_id: str) -> GameState:
    """Visits a Shop and chooses to Enchant it."""
    return do(s, f"visit {shop_name(shop_id)}", "enchant")


def to_ability(s: GameState) -> GameState:
    """Declines the optional placement and fire-up of a Gather turn, up to the Shop ability
    (Gather steps 2 and 3 are skipped only when they offer a choice)."""
    for _ in range(4):
        options = texts(s)
        if any(t.startswith("use ") for t in options):
            return s
        if "do not place" in options:
            do(s, "do not place")
        elif "do not fire up" in options:
            do(s, "do not fire up")
        else:
            break
    raise AssertionError(f"no Shop ability to use: {texts(s)}")


def hold_turn(s: GameState, p: int) -> None:
    """Gives p a met Sun Dragon (Enchanté), so the decisions of p's turn that are asked offer
    a reveal. (Every turn stops at "end turn" anyway, before the end-of-turn steps — limits,
    refills — run; a met Sun Dragon no longer makes a lone action be asked: docs/rules.md,
    ruling 20.)"""
    from flamecraft.core.state import CASTS

    give_fancy(s, p, "enchante")
    s.counters[p][CASTS] = max(s.counters[p][CASTS], 3)
    s.cache = None


def tuck(s: GameState, shop_id: str, *ench_ids: str) -> None:
    """Tucks Enchantments (from the deck or the row) behind a Shop in Town."""
    for e in ench_ids:
        card = E[e]
        for pile in (s.ench_deck, s.ench_row):
            if card in pile:
                pile.remove(card)
        s.shop_ench[S[shop_id]] = (*s.shop_ench[S[shop_id]], card)
    s.cache = None


def set_park(s: GameState, *dragon_ids: str) -> None:
    """Makes the Park exactly these dragons; the dragons it held go to the bottom of the deck."""
    old = s.park[:]
    s.park.clear()
    s.artisan_deck[0:0] = old
    for d in dragon_ids:
        _remove_artisan(s, A[d])
        s.park.append(A[d])
    s.cache = None


def deck_top(s: GameState, *dragon_ids: str) -> None:
    """Puts dragons on top of the Artisan deck, the last one named on the very top."""
    for d in dragon_ids:
        _remove_artisan(s, A[d])
        s.artisan_deck.append(A[d])
    s.cache = None


def clear_fancy(s: GameState, p: int) -> None:
    """Returns p's unscored Fancy Dragons to the bottom of the Fancy deck."""
    s.fancy_deck[0:0] = s.fancy[p]
    s.fancy[p] = []
    s.cache = None


def end_game(s: GameState) -> GameState:
    """Runs the end-game scoring phase on this state now (Coins, then Moon Dragons)."""
    from flamecraft.core.frames import P_GAME_END

    s.stack = [(P_GAME_END,)]
    s.cache = None
    legal_actions(s)
    return s


def goods_of(s: GameState, p: int) -> dict[str, int]:
    """p's Goods by upper-case name (only those held)."""
    return {g: n for g, n in zip(GOODS, s.goods[p], strict=True) if n}


# --- Scenario helpers for the rule tests (turns, end of game) ---


def finish_turn(s: GameState) -> GameState:
    """Plays the rest of the turn in progress declining everything optional ("do not …",
    "stop …" and "end turn" first, else the first legal action), until the next turn starts
    or the game ends."""
    turn = s.turn
    while not s.over and s.turn == turn:
        actions = legal_actions(s)
        declines = [a for a in actions
                    if text(s, a).startswith(("end turn", "do not", "stop", "keep your"))]
        apply_in_place(s, (declines or actions)[0])
    return s


def stand(s: GameState, p: int, shop_id: str) -> None:
    """Puts p's Flamekeeper on a Shop, as if p had visited it last turn."""
    s.pos[p] = S[shop_id]
    s.cache = None


def artisan_deck_down_to(s: GameState, n: int) -> None:
    """Takes cards from the bottom of the Artisan deck out of the game until n are left."""
    while len(s.artisan_deck) > n:
        s.removed.append(s.artisan_deck.pop(0))
    s.cache = None


def set_row(s: GameState, *ench_ids: str) -> None:
    """Makes the Enchantment row exactly these cards (taken from the deck); the cards it held
    go to the bottom of the deck."""
    s.ench_deck[0:0] = s.ench_row
    s.ench_row = []
    for e in ench_ids:
        s.ench_deck.remove(E[e])
        s.ench_row.append(E[e])
    s.cache = None


ISSUE_12_SEED = 472667526  # the seed of issue 12, defect 9 (3 seats, purple deck)


def shop_turning_up_within_a_turn(seed: int = ISSUE_12_SEED, players: int = 3,
                                  games: int = 3000) -> tuple[GameState, list[str]]:
    """Random games from ``seed`` (the k-th chooses by ``random.Random(k)``) up to the first
    choice after which a face-down Shop is face up while the same player goes on choosing
    in the same turn (a Park draw, the end-of-turn flip, then a discard down to 6). Returns
    the state before that choice and the texts of every choice up to and including it."""
    import random

    for k in range(games):
        s, rng, played = start(players, seed, "purple"), random.Random(k), []
        while not s.over:
            actions = legal_actions(s)
            action = actions[rng.randrange(len(actions))]
            played.append(text(s, action))
            nxt = apply(s, action)
            if (len(nxt.facedown) < len(s.facedown) and not nxt.over and nxt.turn == s.turn
                    and to_act(nxt) == to_act(s)):
                return s, played
            s = nxt
    raise AssertionError(f"no face-down Shop turned up within a turn in {games} games")


class LeakySeat(Seat):
    """A seat that (wrongly) hands the true state to search: the control that shows a
    hidden-card test can tell a leak (tests/test_bots.py, tests/test_hints.py)."""

    def __init__(self, state: GameState, seat: int) -> None:
        super().__init__(state, seat)
        self.true_state = state

    def sample(self, rng: random.Random) -> GameState:
        rng.getrandbits(63)
        return self.true_state.copy()


def play_checked(s: GameState, bots: Sequence[Any], rng: random.Random, every: int) -> int:
    """Plays ``s`` to the end in place: the seat's bot takes one decision in ``every`` (a
    random bot the others, so a test sees many kinds of position); every decision is asserted
    legal. Returns the number of decisions."""
    from flamecraft.ai import RandomBot

    decisions = 0
    while not s.over:
        p = to_act(s)
        bot = bots[p] if decisions % every == 0 else RandomBot()
        action = bot.choose(Seat(s, p), rng)
        assert action in legal_actions(s), (text(s, action), decisions)
        apply_in_place(s, action)
        decisions += 1
    return decisions


def answer_one(before: str) -> str:
    """What a script answering "1" at every prompt types: "1", or, right after the terminal
    said 1 is gone (numbers stay with their choices, so a choice made leaves a gap), the
    first number it shows instead."""
    gone = re.search(r"(?:no choice 1 now|選択肢 1 は)[^(（]*[(（](\d+)", before)
    return gone.group(1) if gone else "1"
