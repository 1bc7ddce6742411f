"""Every Fancy Dragon goal (design §3, 18 Sun + 18 Moon): a state where it is met and one where it
is not, read by goals.fancy_value, offered as a Sun reveal, and scored at game end for Moons."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from flamecraft import GameState
from flamecraft.core.board import CATALOG
from flamecraft.core.goals import early_moons, fancy_value
from flamecraft.core.state import (
    CAST_ICONS,
    CASTS,
    COMPLETED,
    EMPTY,
    FANCY_SCORED,
    GIFTS,
    MAX_SETS,
    PLACED,
    SUN_SCORED,
    VISITED,
)
from helpers import (
    A,
    F,
    S,
    add_shop,
    clear_fancy,
    clear_hand,
    do,
    end_game,
    fresh,
    gather,
    give_fancy,
    goods_of,
    set_goods,
    sound,
    texts,
    to_hand,
    to_slot,
)

ME = 0
Setup = Callable[[GameState], None]


def base() -> GameState:
    """The first player's visit decision, with no Fancy Dragons in play, no Goods and no
    Artisan Dragons in hand."""
    s = fresh(2)
    for p in range(2):
        clear_fancy(s, p)
    clear_hand(s, ME)
    return s


# --- setup builders --------------------------------------------------------------------------

def goods(coins: int = 0, **kw: int) -> Setup:
    return lambda s: set_goods(s, ME, coins=coins, **kw)


def counter(index: int, value: int) -> Setup:
    def run(s: GameState) -> None:
        s.counters[ME][index] = value
    return run


def hand(n: int) -> Setup:
    def run(s: GameState) -> None:
        s.hand[ME].extend(s.artisan_deck.pop() for _ in range(n))
    return run


def dragons(shop_id: str, *pairs: tuple[int, str]) -> Setup:
    def run(s: GameState) -> None:
        for k, dragon in pairs:
            to_slot(s, shop_id, k, dragon)
    return run


def enchantments(*per_shop: tuple[str, int]) -> Setup:
    """Tucks n Enchantments behind each named Shop (from the deck, then the row)."""
    def run(s: GameState) -> None:
        for shop_id, n in per_shop:
            for _ in range(n):
                card = s.ench_deck.pop() if s.ench_deck else s.ench_row.pop()
                s.shop_ench[S[shop_id]] = (*s.shop_ench[S[shop_id]], card)
    return run


def fill(*shop_ids: str) -> Setup:
    """Fills every empty slot of these Shops with dragons from the deck (icons ignored)."""
    def run(s: GameState) -> None:
        for shop_id in shop_ids:
            add_shop(s, shop_id)
            for k in range(3):
                i = S[shop_id] * 3 + k
                if s.slots[i] == EMPTY:
                    s.slots[i] = s.artisan_deck.pop() if s.artisan_deck else s.removed.pop()
    return run


def empty_town(s: GameState) -> None:
    """Returns every dragon in Town to the deck."""
    for i, d in enumerate(s.slots):
        if d != EMPTY:
            s.artisan_deck.insert(0, d)
            s.slots[i] = EMPTY


def shops(*shop_ids: str, facedown: int = 0) -> Setup:
    def run(s: GameState) -> None:
        for shop_id in shop_ids:
            add_shop(s, shop_id)
        s.facedown.extend(S[i] for i in shop_ids[len(shop_ids) - facedown:])
    return run


def fancies(unscored: int, scored: int) -> Setup:
    """Adds Fancy Dragons (other than the one tested) to the first player's hand and pile."""
    def run(s: GameState) -> None:
        for _ in range(unscored):
            s.fancy[ME].append(s.fancy_deck.pop())
        for _ in range(scored):
            s.scored[ME].append(s.fancy_deck.pop())
    return run


def both(*setups: Setup) -> Setup:
    def run(s: GameState) -> None:
        for setup in setups:
            setup(s)
    return run


def noop(s: GameState) -> None:
    return None


EMPTY_COIN_SLOTS = 6  # slot 2 of each starter pays 1 Coin

# card id -> [(case name, setup, Reputation it pays)]; every card has a met and an unmet case.
CASES: dict[str, list[tuple[str, Setup, int]]] = {
    # Sun
    "three-of-a-kindle": [
        ("3 Bread at one Shop", dragons("critical-rolls", (1, "honey"), (2, "fondue")), 6),
        ("2 Bread + 1 Meat", dragons("critical-rolls", (1, "honey"), (2, "hot-dog")), 0),
        ("3 Bread over 2 Shops",
         both(dragons("critical-rolls", (1, "honey")), dragons("draco-bell", (1, "fondue"))), 0),
    ],
    "coin-cidence": [
        ("Coins = empty Coin slots", goods(coins=EMPTY_COIN_SLOTS), 5),
        ("one Coin short", goods(coins=EMPTY_COIN_SLOTS - 1), 0),
        ("one Coin over", goods(coins=EMPTY_COIN_SLOTS + 1), 0),
        ("a Coin slot filled", both(goods(coins=5), dragons("smith-mart", (1, "rusty"))), 5),
        ("0 = 0 does not count",
         both(*(dragons(shop, (1, d)) for shop, d in [
             ("critical-rolls", "honey"), ("draco-bell", "hot-dog"), ("smith-mart", "rusty"),
             ("potable-potions", "jasmine"), ("fragile-reptile", "frostfire"),
             ("hello-nursery", "olive")])), 0),
    ],
    "scone-ranger": [("spend", goods(BREAD=3, MEAT=2), 5),
                     ("short", goods(coins=9, BREAD=3, MEAT=1), 0)],
    "sir-loin": [("spend", goods(MEAT=3, IRON=2), 6),
                 ("short", goods(coins=9, MEAT=2, IRON=2), 0)],
    "lady-irony": [("spend", goods(IRON=3, POTION=2), 5),
                   ("short", goods(coins=9, IRON=3, POTION=1), 0)],
    "brewdini": [("spend", goods(POTION=3, CRYSTAL=2), 6),
                 ("short", goods(coins=9, POTION=2, CRYSTAL=2), 0)],
    "gem-dandy": [("spend", goods(CRYSTAL=3, PLANT=2), 5),
                  ("short", goods(coins=9, CRYSTAL=3, PLANT=1), 0)],
    "leaf-erikson": [("spend", goods(PLANT=3, BREAD=2), 5),
                     ("short", goods(coins=9, PLANT=2, BREAD=2), 0)],
    "bric-a-drac": [
        ("one of each", goods(BREAD=1, MEAT=1, IRON=1, POTION=1, CRYSTAL=1, PLANT=1), 8),
        ("no Plant", goods(coins=9, BREAD=2, MEAT=1, IRON=1, POTION=1, CRYSTAL=1), 0)],
    "hoardelia": [("6 Iron", goods(IRON=6), 4), ("5 Iron + Coins", goods(coins=9, IRON=5), 0)],
    "hex-appeal": [("3 at one Shop", enchantments(("smith-mart", 3)), 5),
                   ("2 + 2", enchantments(("smith-mart", 2), ("draco-bell", 2)), 0)],
    "motley-crew": [
        ("3 types", dragons("critical-rolls", (1, "hot-dog"), (2, "rusty")), 4),
        ("2 types", dragons("critical-rolls", (1, "honey"), (2, "rusty")), 0)],
    "enchante": [("3 casts", counter(CASTS, 3), 4), ("2 casts", counter(CASTS, 2), 0)],
    "archi-tail": [("2 completed", counter(COMPLETED, 2), 5),
                   ("1 completed", counter(COMPLETED, 1), 0)],
    "wyrm-welcome": [("4 gifts", counter(GIFTS, 4), 4), ("3 gifts", counter(GIFTS, 3), 0)],
    "drake-expectations": [("5 placed", counter(PLACED, 5), 5),
                           ("4 placed", counter(PLACED, 4), 0)],
    "sir-plus": [("3 sets", counter(MAX_SETS, 3), 5), ("2 sets", counter(MAX_SETS, 2), 0)],
    "clutch-player": [("5 in hand", hand(5), 5), ("4 in hand", hand(4), 0)],
    # Moon
    "oddsbodkins": [
        ("4 odd types", goods(BREAD=1, MEAT=3, POTION=2, CRYSTAL=5, PLANT=7), 4),
        ("all even, odd Coins", goods(coins=3, BREAD=2, MEAT=4), 0),
        ("all odd: cap 6", goods(BREAD=1, MEAT=1, IRON=3, POTION=1, CRYSTAL=5, PLANT=7), 6)],
    "pairadise": [
        ("itself alone", noop, 0),
        ("itself + 1", fancies(1, 0), 2),
        ("itself + 1 scored + 1", fancies(1, 1), 2),
        ("itself + 2 scored + 1", fancies(1, 2), 4),
        ("itself + 5 scored", fancies(0, 5), 6)],
    "kale-idoscope": [
        ("one of each", goods(BREAD=1, MEAT=1, IRON=1, POTION=1, CRYSTAL=1, PLANT=1), 6),
        ("no Plant", goods(coins=5, BREAD=1, MEAT=1, IRON=1, POTION=1, CRYSTAL=1), 0)],
    "den-mother": [("4 in hand", hand(4), 4), ("none", noop, 0), ("8: cap 6", hand(8), 6)],
    "sweep-dreams": [("5 Goods, many Coins", goods(coins=9, IRON=2, MEAT=3), 6),
                     ("no Goods", noop, 6),
                     ("6 Goods", goods(IRON=3, MEAT=3), 5),
                     ("8 Goods", goods(IRON=4, MEAT=4), 3),
                     ("10 Goods", goods(IRON=5, MEAT=5), 1),
                     ("11 Goods", goods(IRON=5, MEAT=6), 0)],
    "nest-egg": [
        ("2 types of 4+", goods(BREAD=4, MEAT=5, IRON=3), 4),
        ("all below 4", goods(coins=9, BREAD=3, MEAT=3, IRON=3), 0),
        ("5 types: cap 8", goods(BREAD=4, MEAT=4, IRON=4, POTION=4, CRYSTAL=4), 8)],
    "no-vacancy": [
        ("6 full Shops", fill("critical-rolls", "draco-bell", "smith-mart", "potable-potions",
                              "fragile-reptile", "hello-nursery"), 5),
        ("5 full Shops", fill("critical-rolls", "draco-bell", "smith-mart", "potable-potions",
                              "fragile-reptile"), 0)],
    "spellbound": [
        ("1 Shop with 3", enchantments(("smith-mart", 3), ("draco-bell", 2)), 2),
        ("none with 3", enchantments(("smith-mart", 2)), 0),
        ("5 Shops: cap 8", enchantments(*((shop, 3) for shop in (
            "critical-rolls", "draco-bell", "smith-mart", "potable-potions",
            "fragile-reptile"))), 8)],
    "fang-club": [
        ("starters: 1 of each", noop, 1),
        ("3 Iron beats 2 Bread",
         both(dragons("critical-rolls", (1, "honey")), dragons("draco-bell", (1, "rusty")),
              dragons("potable-potions", (1, "flint"))), 3),
        ("no dragon in Town", empty_town, 0),
        ("all 7 Bread", both(dragons("critical-rolls", (1, "honey"), (2, "fondue")),
                             dragons("draco-bell", (1, "cookie"), (2, "cinnabun")),
                             dragons("smith-mart", (1, "loaf"), (2, "suzette"))), 7)],
    "curb-appeal": [
        ("3 dragons + 3 Enchantments",
         both(fill("critical-rolls"), enchantments(("critical-rolls", 3))), 6),
        ("3 dragons + 2 Enchantments",
         both(fill("critical-rolls"), enchantments(("critical-rolls", 2))), 0),
        ("2 dragons + 3 Enchantments",
         both(dragons("critical-rolls", (1, "honey")), enchantments(("critical-rolls", 3))), 0)],
    "urban-legend": [
        ("10 Shops", shops("fogo-de-char", "sew-cute", "maw-paws", "pizza-coven"), 4),
        ("9 Shops", shops("fogo-de-char", "sew-cute", "maw-paws"), 0),
        ("10 with one face down",
         shops("fogo-de-char", "sew-cute", "maw-paws", "pizza-coven", facedown=1), 0)],
    "spell-checker": [
        ("2 icons", counter(CAST_ICONS, 0b000011), 0),
        ("3 icons", counter(CAST_ICONS, 0b010011), 3),
        ("4 icons", counter(CAST_ICONS, 0b110011), 5),
        ("5 icons", counter(CAST_ICONS, 0b111011), 7),
        ("6 icons", counter(CAST_ICONS, 0b111111), 7)],
    "ribbon-cutter": [("none", noop, 0), ("2 completed", counter(COMPLETED, 2), 4),
                      ("4 completed: cap 6", counter(COMPLETED, 4), 6)],
    "place-setter": [("3 placed", counter(PLACED, 3), 0), ("5 placed", counter(PLACED, 5), 2),
                     ("12 placed: cap 6", counter(PLACED, 12), 6)],
    "wallflower": [("4 gifts", counter(GIFTS, 4), 6), ("none", noop, 6),
                   ("5 gifts", counter(GIFTS, 5), 5), ("9 gifts", counter(GIFTS, 9), 1),
                   ("10 gifts", counter(GIFTS, 10), 0)],
    "party-animal": [("none", noop, 0), ("3 gifts", counter(GIFTS, 3), 0),
                     ("5 gifts", counter(GIFTS, 5), 2), ("12 gifts: cap 6", counter(GIFTS, 12), 6)],
    "total-eclipse": [("none", noop, 0), ("2 Suns", counter(SUN_SCORED, 2), 4),
                      ("5 Suns: cap 8", counter(SUN_SCORED, 5), 8)],
    "roamin-candle": [("7 Shops", counter(VISITED, 0b0111_1111 << 3), 5),
                      ("6 Shops", counter(VISITED, 0b0011_1111 << 3), 0)],
}



def _cases(sun: bool | None = None) -> list[object]:
    """The cases as test parameters: all, or those of the Sun (or Moon) Dragons only."""
    return [pytest.param(card, setup, rep, id=f"{card}: {name}")
            for card, cases in CASES.items() if sun in (None, CATALOG.fancies[F[card]].sun)
            for name, setup, rep in cases]


ALL_CASES = _cases()
SUN_CASES = _cases(sun=True)
MOON_CASES = _cases(sun=False)


def scenario(card_id: str, setup: Setup) -> GameState:
    """The tested card in the first player's unscored Fancy Dragons, then the case's setup."""
    s = base()
    give_fancy(s, ME, card_id)
    setup(s)
    s.cache = None
    return s


def test_every_fancy_dragon_has_a_met_and_an_unmet_case() -> None:
    """Coverage of design §3: all 36 cards, each with a met and an unmet state."""
    assert set(CASES) == {f.id for f in CATALOG.fancies}
    for card, cases in CASES.items():
        values = [rep for _, _, rep in cases]
        assert any(v > 0 for v in values) and 0 in values, card


@pytest.mark.parametrize(("card", "setup", "rep"), ALL_CASES)
def test_fancy_value(card: str, setup: Setup, rep: int) -> None:
    """design §3: the goal as written and its reward (per-item caps, tables, at least/most);
    Coins never stand in for Goods (ruling 21)."""
    s = scenario(card, setup)
    assert fancy_value(s, ME, CATALOG.fancies[F[card]]) == rep
    sound(s)


@pytest.mark.parametrize(("card", "setup", "rep"), SUN_CASES)
def test_sun_reveal_offered_exactly_when_met(card: str, setup: Setup, rep: int) -> None:
    """Ruling 21: a Sun Dragon may be revealed at a decision of its owner's turn once its goal
    is met, and only then."""
    s = scenario(card, setup)
    reveal = f"reveal {CATALOG.fancies[F[card]].name}"
    assert (reveal in texts(s)) == (rep > 0)


@pytest.mark.parametrize(("card", "setup", "rep"), MOON_CASES)
def test_moon_scored_at_game_end(card: str, setup: Setup, rep: int) -> None:
    """Rules, End-Game Scoring / ruling 19: Coins are cashed in (1 each), then each Moon
    Dragon whose goal is met scores; an unmet one stays unscored."""
    s = scenario(card, setup)
    coins, before = s.coins[ME], s.rep[ME]
    moon = F[card]
    assert all(f"reveal {CATALOG.fancies[moon].name}" != t for t in texts(s)), "never revealed"
    end_game(s)
    assert s.over
    assert s.rep[ME] == before + coins + rep
    assert (moon in s.scored[ME]) == (rep > 0)
    assert (moon in s.fancy[ME]) == (rep == 0)


SPEND_SUNS = [f.id for f in CATALOG.fancies if f.sun and f.goal.spend is not None]


@pytest.mark.parametrize("card", SPEND_SUNS)
def test_revealing_a_spend_goal_spends_and_pays(card: str) -> None:
    """Rules, Fancy Dragons: revealing a Sun spends the Goods its goal names (no more) and pays
    its Reputation and extras (a Coin, or an Artisan Dragon draw)."""
    fancy = CATALOG.fancies[F[card]]
    assert fancy.goal.spend is not None
    s = base()
    give_fancy(s, ME, fancy.id)
    spend = {g: n for g, n in zip(("BREAD", "MEAT", "IRON", "POTION", "CRYSTAL", "PLANT"),
                                  fancy.goal.spend, strict=True) if n}
    extra = {g: spend.get(g, 0) + 1 for g in ("BREAD", "PLANT")}
    set_goods(s, ME, coins=1, **{**spend, **extra})
    hand_before = len(s.hand[ME])
    do(s, f"reveal {fancy.name}")
    assert goods_of(s, ME) == {"BREAD": 1, "PLANT": 1}
    assert s.rep[ME] == fancy.reward.rep
    assert s.coins[ME] == 1 + fancy.reward.coins
    assert s.scored[ME] == [F[fancy.id]] and s.fancy[ME] == []
    assert s.counters[ME][SUN_SCORED] == 1 and s.counters[ME][FANCY_SCORED] == 1
    if fancy.reward.artisan:
        assert "draw from the Artisan deck" in texts(s)
        do(s, "draw from the Artisan deck")
        assert len(s.hand[ME]) == hand_before + 1
    assert all(t.startswith("visit ") for t in texts(s)), "back to the visit decision"
    sound(s)


def test_revealing_a_possession_goal_keeps_the_goods() -> None:
    """design §3 Hoardelia: nothing is spent; each Fancy Dragon scores at most once."""
    s = scenario("hoardelia", goods(IRON=6))
    do(s, "reveal Hoardelia")
    assert goods_of(s, ME) == {"IRON": 6} and s.rep[ME] == 4
    assert "reveal Hoardelia" not in texts(s)


def test_enchante_extra_coin_and_no_second_score() -> None:
    """design §3 Enchanté (after the balance pass): 4 Reputation and 1 Coin; revealed once
    only."""
    s = scenario("enchante", counter(CASTS, 3))
    do(s, "reveal Enchanté")
    assert s.rep[ME] == 4 and s.coins[ME] == 1 and "reveal Enchanté" not in texts(s)


def test_reveal_is_offered_mid_turn_once_met() -> None:
    """Ruling 21: a goal met during the turn (Goods just gathered) may be revealed at the next
    decision."""
    s = scenario("sir-loin", goods(MEAT=1, IRON=2))
    assert "reveal Sir Loin" not in texts(s)
    gather(s, "draco-bell")
    assert goods_of(s, ME) == {"MEAT": 3, "IRON": 2}
    assert "reveal Sir Loin" in texts(s)
    do(s, "reveal Sir Loin")
    assert s.rep[ME] == 6 and goods_of(s, ME) == {}


def test_reveal_only_on_the_owners_turn() -> None:
    """Ruling 21: Sun Dragons are revealed during their owner's turn only."""
    s = base()
    give_fancy(s, 1, "hoardelia")
    set_goods(s, 1, IRON=6)
    assert "reveal Hoardelia" not in texts(s)
    gather(s, "critical-rolls")
    do(s, "do not fire up")
    assert texts(s) == ["end turn"]  # the first player's last decision: no reveal of P2's
    do(s, "end turn")
    assert s.current == 1 and "reveal Hoardelia" in texts(s)


def test_clutch_player_before_the_discard() -> None:
    """design §3 Clutch Player (5 in hand after the balance pass): a hand reaching 5 within a
    turn, by a Bread fire-up's draw, can be revealed at once."""
    s = base()
    give_fancy(s, ME, "clutch-player")
    to_hand(s, ME, "honey", "fondue", "cookie", "hot-dog")
    assert "reveal Clutch Player" not in texts(s)
    gather(s, "critical-rolls")
    do(s, "do not place", "fire up Pan", "draw from the Artisan deck")
    assert len(s.hand[ME]) == 5 and "reveal Clutch Player" in texts(s)
    do(s, "reveal Clutch Player")
    assert s.rep[ME] == 5


def test_sun_dragons_do_not_score_at_game_end() -> None:
    """Ruling 19: Sun Dragons score only when revealed during their owner's turn."""
    s = scenario("hoardelia", goods(coins=2, IRON=6))
    end_game(s)
    assert s.rep[ME] == 2 and s.fancy[ME] == [F["hoardelia"]] and s.coins[ME] == 0


def test_end_only_moons_are_never_scored_early() -> None:
    """design §0 "score a Fancy Dragon now": end-only Moon Dragons are not offered early, even
    when met; other met Moons are."""
    s = base()
    give_fancy(s, ME, "sweep-dreams", "wallflower", "den-mother", "kale-idoscope")
    to_hand(s, ME, "honey")
    assert fancy_value(s, ME, CATALOG.fancies[F["sweep-dreams"]]) == 6
    assert fancy_value(s, ME, CATALOG.fancies[F["wallflower"]]) == 6
    assert early_moons(s, ME) == [F["den-mother"]]
    end_game(s)
    assert set(s.scored[ME]) == {F["sweep-dreams"], F["wallflower"], F["den-mother"]}
    assert s.rep[ME] == 6 + 6 + 1


def test_coins_are_cashed_before_moon_goals() -> None:
    """Ruling 21: at game end Coins are cashed in before Moon goals are read; no Moon goal
    counts Coins (Sweep Dreams with many Coins still scores)."""
    s = scenario("sweep-dreams", goods(coins=7, BREAD=1))
    end_game(s)
    assert s.rep[ME] == 7 + 6 and s.coins[ME] == 0


def test_pairadise_counts_scored_and_unscored_including_itself() -> None:
    """design §3 Pairadise / Appendix C 2: scored Fancy Dragons count, and so does the card
    itself; at game end, Moons scored alongside it do not change the count."""
    s = base()
    give_fancy(s, ME, "pairadise", "den-mother", "sir-loin")
    s.scored[ME].append(s.fancy_deck.pop())
    to_hand(s, ME, "honey")
    pairadise = CATALOG.fancies[F["pairadise"]]
    assert fancy_value(s, ME, pairadise) == 4
    end_game(s)
    assert s.rep[ME] == 4 + 1
    assert fancy_value(s, ME, pairadise) == 4
    assert A["honey"] in s.hand[ME]


def test_visiting_gifts_count_as_gifts_given() -> None:
    """design §0 "gift": the gifts given to visit an occupied Shop count as gifts given, so they
    feed Wyrm Welcome."""
    s = scenario("wyrm-welcome", counter(GIFTS, 3))
    s.pos[1] = S["smith-mart"]
    set_goods(s, ME, BREAD=1)
    assert "reveal Wyrm Welcome" not in texts(s)
    do(s, "visit Smith Mart")
    assert s.goods[1][0] == 1 and s.counters[ME][GIFTS] == 4
    assert "reveal Wyrm Welcome" in texts(s)
