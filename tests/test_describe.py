"""``describe`` / ``choices``: every legal action with its facts (cost, gain, where), the same
for both UIs, read only from what the seat to act may see (issue 13, item 1)."""

from __future__ import annotations

import pickle
import random

import flamecraft
from flamecraft import Choice, apply_in_place, choices, describe, legal_actions, start, text
from flamecraft.core import actions as A
from flamecraft.core.board import CATALOG
from flamecraft.core.hidden import determinize
from helpers import (
    F,
    S,
    do,
    fresh,
    give_fancy,
    set_goods,
    shop_name,
    stand,
    to_hand,
    to_row,
)


def _label(s: flamecraft.GameState, typed: str) -> str:
    for choice in choices(s):
        if choice.text == typed:
            return choice.label
    raise AssertionError(f"{typed!r} not among {[c.text for c in choices(s)]}")


def test_label_is_the_text_then_the_facts() -> None:
    assert Choice("end turn", "", None).label == "end turn"
    assert Choice("gain Meat", "[Me]", None).label == "gain Meat [Me]"
    assert flamecraft.describe is describe and flamecraft.choices is choices
    choice = Choice("keep Archi-tail", "— Sun", "archi-tail")
    assert pickle.loads(pickle.dumps(choice)) == choice  # a server may send it to a process


def test_choices_are_the_legal_actions_in_order_with_their_stable_texts() -> None:
    s = fresh(3, seed=4)
    assert [c.text for c in choices(s)] == [text(s, a) for a in legal_actions(s)]
    assert all(describe(s, a) == c for a, c in zip(legal_actions(s), choices(s), strict=True))


def test_cast_shows_its_cost_and_its_reward() -> None:
    s = fresh(2, seed=2)
    to_row(s, "smelting-pot", "joe-forgeman")
    set_goods(s, 0, MEAT=6, PLANT=2, CRYSTAL=4, IRON=2, BREAD=1)
    do(s, "visit Smith Mart", "enchant")
    assert _label(s, "cast Smelting Pot") == "cast Smelting Pot (3 Meat 2 Crystal 1 Plant → 6 Rep)"
    joe = CATALOG.enchantments[CATALOG.enchantment_by_id["joe-forgeman"]]
    two = _label(s, "cast Joe Forgeman with 1 set")
    assert f"→ {joe.rep_by_sets[0]} Rep" in two or joe.rep_by_sets[0] == 0
    assert next(c for c in choices(s) if c.text == "cast Smelting Pot").card == "smelting-pot"


def test_keeping_a_fancy_dragon_shows_its_goal_and_what_it_pays_now() -> None:
    s = fresh(2, seed=1)
    give_fancy(s, 0, "archi-tail")
    s.counters[0][2] = 2  # COMPLETED
    s.stack.append((22, 0, -1, 1, F["archi-tail"], F["sir-loin"]))  # D_KEEP_DRAWN_FANCY
    s.cache = None
    give_fancy(s, 0, "sir-loin")
    label = _label(s, "keep Archi-tail")
    assert label == "keep Archi-tail — Sun: 2/2 Shops completed → 5 Rep now"
    assert _label(s, "keep Sir Loin").startswith("keep Sir Loin — Sun: spend 3 Meat 2 Iron")


def test_placing_shows_the_slot_reward_and_visiting_the_gift_owed() -> None:
    s = fresh(3, seed=5)
    stand(s, 1, "smith-mart")
    set_goods(s, 0, MEAT=1)
    visit = _label(s, f"visit {shop_name('smith-mart')}")
    names = s.options.player_names()
    assert visit.endswith(f", gift 1 to {names[1]}") and "→ [Ir]" in visit
    to_hand(s, 0, "hot-dog")
    do(s, f"visit {shop_name('critical-rolls')}")
    for choice in choices(s):
        if choice.text.startswith("place Hot Dog"):
            shop, slot = S["critical-rolls"], int(choice.text.rsplit(" ", 1)[1]) - 1
            reward = CATALOG.shops[shop].slots[slot].reward
            assert choice.facts.startswith("[Me] → ")
            if reward.rep:
                assert f"{reward.rep} Rep" in choice.facts
            assert choice.card == "hot-dog"


def _random_games() -> list[tuple[flamecraft.GameState, int]]:
    """States from random games of every size (some golden, some with Companions)."""
    out = []
    for seed in range(10):
        s = start(1 + seed % 5, seed, "golden" if seed % 2 else "purple",
                  companions=seed % 3 == 0)
        rng = random.Random(seed)
        while not s.over:
            out.append((s.copy(), seed))
            apply_in_place(s, rng.choice(legal_actions(s)))
    return out


def test_every_action_kind_met_in_random_games_says_something() -> None:
    """Declines and the bare steps aside, every choice carries facts."""
    bare = {A.SKIP, A.END_TURN, A.ENCHANT}
    kinds = set()
    for s, _ in _random_games():
        for action, choice in zip(legal_actions(s), choices(s), strict=True):
            kinds.add(action[0])
            assert choice.text == text(s, action)
            assert (choice.facts == "") == (action[0] in bare), choice
            assert "\n" not in choice.label
    assert len(kinds) >= 30


def test_facts_read_nothing_another_seat_hides() -> None:
    """Re-dealing every card the acting seat cannot see changes no description."""
    for i, (s, seed) in enumerate(_random_games()):
        if i % 7:
            continue
        seat = flamecraft.to_act(s)
        mine = choices(s)
        for k in range(2):
            assert choices(determinize(s, seat, seed * 10 + k)) == mine
