"""The end of the game and the Fancy Dragons' timing: the end trigger, the final round,
end-game scoring, tie-breakers (rules "End of the Game Trigger" to "Tiebreakers", "Fancy
Dragons"; rulings 17–21)."""

from __future__ import annotations

import pytest

from flamecraft import GameState, apply, legal_actions, parse_action, to_act, winners
from flamecraft.core.board import CATALOG
from flamecraft.core.state import FANCY_SCORED, SRC_COINS, SRC_MOON, SRC_SUN, SUN_SCORED
from helpers import (
    F,
    add_shop,
    artisan_deck_down_to,
    clear_fancy,
    clear_hand,
    do,
    end_game,
    end_turn,
    finish_turn,
    fresh,
    give_fancy,
    set_goods,
    set_park,
    set_row,
    sound,
    texts,
    to_hand,
)

BREAD, MEAT, IRON, POTION, CRYSTAL, PLANT = range(6)


def no_fancies(s: GameState) -> GameState:
    """Clears every player's Fancy Dragons, so no Sun reveal adds choices to a scenario."""
    for p in range(s.n):
        clear_fancy(s, p)
    return s


def play_out(s: GameState) -> list[int]:
    """Finishes the game turn by turn; returns the seat of each turn that starts."""
    seats = []
    while not s.over:
        turn = s.turn
        finish_turn(s)
        if not s.over:
            assert s.turn == turn + 1
            seats.append(s.current)
    return seats


def trigger_by_drawing_the_last_artisan(s: GameState) -> GameState:
    """The player to act visits Sew Cute (a dragon Shop) and draws the last card of the
    Artisan deck."""
    add_shop(s, "sew-cute")
    artisan_deck_down_to(s, 1)
    do(s, "visit Sew Cute", "draw from the Artisan deck")
    return s


# --- the end trigger and the final round ------------------------------------------------------

def test_drawing_the_last_artisan_triggers_the_end_and_the_turn_goes_on() -> None:
    """Rules, End of the Game Trigger, and ruling 17: drawing the last card of the Artisan
    deck triggers the end; the triggering turn is finished normally (here: its placement,
    fire-up and Shop ability steps are still offered)."""
    s = no_fancies(fresh(2, seed=0))
    trigger_by_drawing_the_last_artisan(s)
    assert s.artisan_deck == [] and s.end_triggered and not s.over
    assert to_act(s) == 0 and s.current == 0
    assert "do not place" in texts(s)
    do(s, "do not place")
    assert texts(s) == ["use Alterations", "do not use the Shop ability"]


def test_a_draw_ability_drawing_the_last_artisan_triggers_the_end() -> None:
    """Ruling 17: the end is triggered whatever draws the last Artisan card — here a Bread
    Dragon's fire-up (Pan) during a Gather."""
    s = no_fancies(fresh(2, seed=0))
    clear_hand(s, 0)
    artisan_deck_down_to(s, 1)
    do(s, "visit Critical Rolls", "fire up Pan")
    assert not s.end_triggered
    do(s, "draw from the Artisan deck")
    assert s.end_triggered and s.artisan_deck == []
    end_turn(s)  # the triggering turn had nothing left but its end
    assert s.current == 1  # seat 2's final turn began
    assert play_out(s) == [0]


@pytest.mark.parametrize(("players", "seat"), [(2, 0), (2, 1), (3, 0), (3, 2), (4, 1),
                                                (5, 4), (5, 2)])
def test_final_round_every_player_one_more_turn_from_the_next_seat(players: int,
                                                                   seat: int) -> None:
    """Rules, End of the Game Trigger, and ruling 17: after the triggering turn, every
    player, the triggering player too, takes exactly one more turn, in seat order starting
    with the next player; then the game ends."""
    s = no_fancies(fresh(players, seed=1))
    while s.current != seat:
        finish_turn(s)
    trigger_by_drawing_the_last_artisan(s)
    turns_before = s.turn
    seats = play_out(s)
    assert seats == [(seat + 1 + k) % players for k in range(players)]
    assert s.turn == turns_before + players
    assert s.over and legal_actions(s) == [] and to_act(s) == -1


def test_revealing_the_last_artisan_into_the_park_triggers_the_end() -> None:
    """Ruling 17: the end is also triggered when the last Artisan card is revealed by the
    end-of-turn refill of the Park (after a dragon is taken from the Park)."""
    s = no_fancies(fresh(2, seed=0))
    add_shop(s, "sew-cute")
    artisan_deck_down_to(s, 1)
    last = s.artisan_deck[0]
    do(s, "visit Sew Cute", f"draw {CATALOG.artisans[s.park[0]].name} from the Park")
    assert not s.end_triggered  # nothing drawn from the deck yet
    finish_turn(s)
    assert s.end_triggered and s.artisan_deck == [] and s.park[-1] == last
    assert play_out(s) == [0]  # seat 2's final turn has begun; then seat 1's


def test_revealing_the_last_enchantment_triggers_the_end() -> None:
    """Ruling 17: the end is triggered when the last card of the Enchantment deck is
    revealed by the end-of-turn refill of the row."""
    s = no_fancies(fresh(2, seed=0))
    set_row(s, "displacer-beef", "smelting-pot", "mirror-of-truth", "wraith-rose",
            "elfspresso")
    del s.ench_deck[:-1]  # (the other cards leave the game: only the count matters here)
    set_goods(s, 0, BREAD=2, IRON=3)
    do(s, "visit Draco Bell", "enchant")
    assert not s.end_triggered and len(s.ench_deck) == 1
    seats = [s.current, *play_out(s)]
    assert s.ench_deck == [] and len(s.ench_row) == 5
    assert seats == [0, 1, 0]


def test_drawing_the_last_artisan_during_the_final_round_changes_nothing() -> None:
    """Ruling 17: the end is triggered once; later draws do not extend the final round."""
    s = no_fancies(fresh(3, seed=2))
    trigger_by_drawing_the_last_artisan(s)
    finish_turn(s)
    s.artisan_deck.append(s.removed.pop())  # one card back, drawn again by the next player
    set_goods(s, 1, BREAD=1)  # to pay the visit of Sew Cute, where seat 1 stands
    do(s, "visit Sew Cute", "draw from the Artisan deck")
    assert s.artisan_deck == []
    seats = play_out(s)
    assert seats == [2, 0]  # the final round goes on: seats 2 and 0 still to play


def test_empty_artisan_deck_gives_nothing_and_park_is_not_refilled() -> None:
    """Ruling 18: an empty deck gives nothing: no draw from it is offered, a Park draw still
    is, and the Park is not refilled."""
    s = no_fancies(fresh(2, seed=0))
    add_shop(s, "sew-cute")
    set_park(s, "honey", "cutlet", "rusty", "jasmine", "frostfire")
    s.removed.extend(s.artisan_deck)
    s.artisan_deck.clear()
    do(s, "visit Sew Cute")
    assert texts(s) == ["draw Honey from the Park", "draw Cutlet from the Park",
                        "draw Rusty from the Park", "draw Jasmine from the Park",
                        "draw Frostfire from the Park"]
    do(s, texts(s)[0])
    finish_turn(s)
    assert len(s.park) == 4
    sound(s)


def test_empty_park_and_deck_draw_nothing() -> None:
    """Ruling 18: with the Park and the Artisan deck both empty, a draw does nothing (the
    Gather goes on to its next step)."""
    s = no_fancies(fresh(2, seed=0))
    add_shop(s, "sew-cute")
    s.removed.extend(s.artisan_deck + s.park)
    s.artisan_deck.clear()
    s.park.clear()
    hand = s.hand[0][:]
    s.cache = None
    do(s, "visit Sew Cute")
    assert s.hand[0] == hand
    assert all(t.startswith(("place", "do not place")) for t in texts(s))
    sound(s)


def test_empty_enchantment_deck_leaves_the_row_short() -> None:
    """Ruling 18: with the Enchantment deck empty, the row is not refilled."""
    s = no_fancies(fresh(2, seed=0))
    set_row(s, "displacer-beef", "smelting-pot", "mirror-of-truth", "wraith-rose",
            "elfspresso")
    s.ench_deck.clear()
    s.end_triggered, s.final_turns = True, 2
    set_goods(s, 0, BREAD=2, IRON=3)
    do(s, "visit Draco Bell", "enchant")
    finish_turn(s)
    assert len(s.ench_row) == 4


# --- end-game scoring -------------------------------------------------------------------------

def test_scoring_coins_then_moon_dragons_with_met_goals() -> None:
    """Rules, End-Game Scoring, and ruling 19: each Coin is returned for 1 Reputation; then
    each Moon Dragon whose goal is met scores; unmet ones score nothing."""
    s = no_fancies(fresh(2, seed=0))
    s.rep = [5, 2]
    s.rep_sources[0][0], s.rep_sources[1][0] = 5, 2
    set_goods(s, 0, coins=4, BREAD=1, MEAT=1, IRON=1, POTION=1, CRYSTAL=1, PLANT=1)
    give_fancy(s, 0, "kale-idoscope", "den-mother")  # 6; 1 per dragon in hand (3)
    set_goods(s, 1, coins=0, BREAD=1)
    give_fancy(s, 1, "nest-egg")  # 2 per type with 4+: none
    end_game(s)
    assert s.over
    assert s.coins == [0, 0]
    assert s.rep == [5 + 4 + 6 + 3, 2]
    assert s.rep_sources[0][SRC_COINS] == 4 and s.rep_sources[0][SRC_MOON] == 9
    assert sorted(s.scored[0]) == sorted([F["kale-idoscope"], F["den-mother"]])
    assert s.scored[1] == [] and s.fancy[1] == [F["nest-egg"]]
    sound(s)


def test_coins_cannot_fulfil_moon_goals() -> None:
    """Rules, Fancy Dragons, and ruling 19/21: Coins are turned in before Fancy Dragons are
    scored, so Coins never count toward a goal (Kale-idoscope needs 1 of each of the six
    Goods; Sweep Dreams counts Goods, and Coins are not Goods)."""
    s = no_fancies(fresh(2, seed=0))
    set_goods(s, 0, coins=3, BREAD=1, MEAT=1, IRON=1, POTION=1, CRYSTAL=1)
    give_fancy(s, 0, "kale-idoscope")
    set_goods(s, 1, coins=10, PLANT=2)
    give_fancy(s, 1, "sweep-dreams")
    end_game(s)
    assert s.rep == [3, 10 + 6]
    assert s.scored == [[], [F["sweep-dreams"]]]


def test_sun_dragons_never_score_at_the_end() -> None:
    """Rules, Fancy Dragons, and ruling 19: Sun Dragons score only when revealed during their
    owner's turn, never at the end, even with the goal met."""
    s = no_fancies(fresh(2, seed=0))
    set_goods(s, 1, MEAT=3, IRON=2, BREAD=6)
    give_fancy(s, 1, "sir-loin", "hoardelia")
    end_game(s)
    assert s.rep == [0, 0] and s.scored == [[], []]
    assert s.goods[1] == [6, 3, 2, 0, 0, 0]


def test_game_ends_with_scoring_after_the_final_round() -> None:
    """Rules, End-Game Scoring: once all players have had their final turn, Coins and Moon
    Dragons are scored (played through, not called directly)."""
    s = no_fancies(fresh(2, seed=0))
    trigger_by_drawing_the_last_artisan(s)
    finish_turn(s)
    finish_turn(s)  # seat 2's final turn
    assert not s.over
    set_goods(s, 0, coins=7)
    give_fancy(s, 0, "den-mother")
    s.cache = None
    rep = s.rep[0]
    free = next(shop for shop in s.town_shops() if shop not in s.pos)  # no gift to pay
    do(s, f"visit {CATALOG.shops[free].name}")
    finish_turn(s)  # seat 1's final turn
    assert s.over and s.coins == [0, 0]
    assert s.rep_sources[0][SRC_COINS] == 7
    assert s.rep[0] == rep + 7 + min(6, len(s.hand[0]))


# --- the winner -------------------------------------------------------------------------------

def _final(reps: list[int], hands: list[int], goods: list[int]) -> GameState:
    s = fresh(len(reps), seed=0)
    s.rep = list(reps)
    for p in range(s.n):
        clear_hand(s, p)
        s.hand[p] = [s.artisan_deck.pop() for _ in range(hands[p])]
        s.goods[p] = [goods[p], 0, 0, 0, 0, 0]
        s.coins[p] = 0
    s.over = True
    return s


@pytest.mark.parametrize(("reps", "hands", "goods", "expected"), [
    ([10, 9, 8], [0, 6, 6], [0, 9, 9], [0]),  # Reputation first
    ([10, 10, 8], [2, 3, 6], [9, 0, 9], [1]),  # then dragons in hand
    ([10, 10, 10], [3, 3, 2], [4, 5, 9], [1]),  # then Goods
    ([10, 10, 9], [3, 3, 9], [4, 4, 9], [0, 1]),  # still tied: shared
    ([7, 7, 7], [1, 1, 1], [0, 0, 0], [0, 1, 2]),
])
def test_winner_by_reputation_then_hand_then_goods_else_shared(
        reps: list[int], hands: list[int], goods: list[int], expected: list[int]) -> None:
    """Rules, Victory Condition and Tiebreakers, and ruling 20: highest Reputation wins; ties
    go to the most Artisan Dragons in hand, then the most leftover Goods; still tied, the
    victory is shared."""
    assert winners(_final(reps, hands, goods)) == expected


# --- Sun Dragons during the game --------------------------------------------------------------

def test_sun_reveal_only_on_its_owners_turn() -> None:
    """Rules, Fancy Dragons, and ruling 21: a Sun Dragon may be revealed on its owner's turn
    only."""
    s = no_fancies(fresh(2, seed=0))
    give_fancy(s, 1, "hoardelia")
    set_goods(s, 1, BREAD=6)
    while s.current == 0:
        assert not any(t.startswith("reveal") for t in texts(s))
        actions = texts(s)
        do(s, next((t for t in actions if t.startswith(("do not", "stop"))), actions[0]))
    assert to_act(s) == 1
    assert "reveal Hoardelia" in texts(s)


def test_sun_reveal_only_once_its_goal_is_met() -> None:
    """Rules, Fancy Dragons, and ruling 21: a Sun Dragon may be revealed once its goal is
    met, at the next step of its owner's turn (Hoardelia: 6 of one Good)."""
    s = no_fancies(fresh(2, seed=0))
    clear_hand(s, 0)
    give_fancy(s, 0, "hoardelia")
    set_goods(s, 0, BREAD=4)
    assert not any(t.startswith("reveal") for t in texts(s))
    do(s, "visit Critical Rolls")  # 2 Bread: 6
    assert texts(s) == ["fire up Pan", "do not fire up", "reveal Hoardelia"]


def test_sun_reveal_is_offered_at_each_step_of_the_turn() -> None:
    """Ruling 21: a met Sun Dragon may be revealed at the decisions of each step of its
    owner's turn: visit, gather/enchant, place, fire up, Shop ability, end of turn — not in
    the middle of an effect (such as choosing the Good a rainbow Shop gives)."""
    s = no_fancies(fresh(2, seed=0))
    add_shop(s, "bizarre-bazaar")
    clear_hand(s, 0)
    to_hand(s, 0, "honey")
    set_row(s, "displacer-beef", "smelting-pot", "mirror-of-truth", "wraith-rose",
            "elfspresso")
    give_fancy(s, 0, "hoardelia")
    set_goods(s, 0, BREAD=6, IRON=3)
    seen = {}
    for step in ("visit Bizarre Bazaar", "gather", "gain Bread",
                 "place Honey on Bizarre Bazaar slot 1", "do not fire up",
                 "do not use the Shop ability"):
        seen[step] = "reveal Hoardelia" in texts(s)
        do(s, step)
    seen["end turn"] = "reveal Hoardelia" in texts(s)
    assert texts(s) == ["end turn", "reveal Hoardelia"]
    assert seen == {"visit Bizarre Bazaar": True, "gather": True, "gain Bread": False,
                    "place Honey on Bizarre Bazaar slot 1": True, "do not fire up": True,
                    "do not use the Shop ability": True, "end turn": True}


def test_sun_spend_goal_returns_the_goods_and_scores() -> None:
    """Rules, Fancy Dragons, and ruling 21: a Sun Dragon whose goal spends Goods returns them
    when revealed, and scores its reward (Sir Loin: spend 3 Meat, 2 Iron; 6 Reputation)."""
    s = no_fancies(fresh(2, seed=0))
    give_fancy(s, 0, "sir-loin")
    set_goods(s, 0, coins=2, MEAT=4, IRON=3, PLANT=1)
    do(s, "reveal Sir Loin")
    assert s.goods[0] == [0, 1, 1, 0, 0, 1] and s.coins[0] == 2
    assert s.rep[0] == 6 and s.rep_sources[0][SRC_SUN] == 6
    assert s.scored[0] == [F["sir-loin"]] and s.fancy[0] == []
    assert s.counters[0][SUN_SCORED] == 1 and s.counters[0][FANCY_SCORED] == 1
    assert to_act(s) == 0 and texts(s)[0].startswith("visit")  # still the same decision
    sound(s)


def test_sun_reward_extras_coin_and_artisan() -> None:
    """Rules, Earning Rewards: a Sun Dragon's extra rewards are gained (Lady Irony: 5
    Reputation and 1 Coin; Scone Ranger: 5 Reputation and an Artisan Dragon draw)."""
    s = no_fancies(fresh(2, seed=0))
    give_fancy(s, 0, "lady-irony", "scone-ranger")
    set_goods(s, 0, IRON=3, POTION=2, BREAD=3, MEAT=2)
    do(s, "reveal Lady Irony")
    assert s.coins[0] == 1 and s.rep[0] == 5
    hand = s.hand[0][:]
    top = s.artisan_deck[-1]
    do(s, "reveal Scone Ranger", "draw from the Artisan deck")
    assert s.hand[0] == [*hand, top] and s.rep[0] == 10
    assert s.goods[0] == [0] * 6


def test_coins_never_count_toward_a_sun_goal() -> None:
    """Ruling 21: Coins never stand in for Goods in a goal (Sir Loin needs 3 Meat and 2 Iron
    in Goods)."""
    s = no_fancies(fresh(2, seed=0))
    give_fancy(s, 0, "sir-loin")
    set_goods(s, 0, coins=9, MEAT=3, IRON=1)
    assert "reveal Sir Loin" not in texts(s)
    set_goods(s, 0, coins=9, MEAT=3, IRON=2)
    assert "reveal Sir Loin" in texts(s)


def test_each_fancy_dragon_scores_once_and_several_suns_in_one_turn() -> None:
    """Rules, Fancy Dragons, and ruling 21: several Sun Dragons may be revealed in one turn;
    each scores at most once (it is not offered again, nor scored at the end)."""
    s = no_fancies(fresh(2, seed=0))
    give_fancy(s, 0, "hoardelia", "sir-loin")
    set_goods(s, 0, BREAD=6, MEAT=3, IRON=2)
    assert texts(s)[-2:] == ["reveal Hoardelia", "reveal Sir Loin"]
    do(s, "reveal Hoardelia")
    assert texts(s)[-1] == "reveal Sir Loin"  # Hoardelia is gone, its goal still met
    do(s, "reveal Sir Loin")
    assert not any(t.startswith("reveal") for t in texts(s))
    assert s.rep[0] == 4 + 6 and s.counters[0][SUN_SCORED] == 2
    assert s.scored[0] == [F["hoardelia"], F["sir-loin"]]
    end_game(s)
    assert s.rep[0] == 10  # nothing more at the end


def test_reveal_is_a_choice_not_forced() -> None:
    """Rules, Fancy Dragons: you MAY reveal a met Sun Dragon; the turn can end without it,
    and it stays unscored."""
    s = no_fancies(fresh(2, seed=0))
    clear_hand(s, 0)
    give_fancy(s, 0, "hoardelia")
    set_goods(s, 0, BREAD=6)
    after = apply(s, parse_action(s, "visit Smith Mart"))
    finish_turn(after)
    assert after.fancy[0] == [F["hoardelia"]] and after.rep[0] == 0
    assert after.current == 1
