"""A Fancy Dragon says its reward and goal when it is kept, and its owner's progress after,
in the terminal's hand and on the web (issue 21, item 7): ``Roamin' Candle — Moon: 1/7 Shops
visited → 5 Rep``. Only its owner is told: the cards are hidden from the others."""

from __future__ import annotations

from flamecraft import choices, start
from flamecraft.core.board import CATALOG
from flamecraft.core.describe import fancy_facts
from flamecraft.server.wire import view_in
from flamecraft.terminal.local_table import LocalTable
from flamecraft.terminal.newgame import PlayerSeat
from flamecraft.terminal.screen import Cards, Style, hand_detail, me_lines, strip_ansi
from helpers import F, clear_fancy, do, fresh, give_fancy, shop_name

CANDLE = CATALOG.fancies[F["roamin-candle"]]


def _candle_game() -> LocalTable:
    """Seat 0 holds Roamin' Candle (Moon: 7 Shops visited → 5 Rep) and has visited 1 Shop."""
    s = fresh(2, seed=3)
    clear_fancy(s, 0)
    give_fancy(s, 0, "roamin-candle")
    do(s, f"visit {shop_name(CATALOG.shops[s.town[0]].id)}")
    return LocalTable(s, 3, [PlayerSeat("human", "Ann"), PlayerSeat("planner", "Ember")])


def test_a_fancy_dragon_s_facts_give_its_reward_before_its_goal_is_met() -> None:
    s = start(2, 1)
    assert fancy_facts(s, 0, CANDLE) == "— Moon: 0/7 Shops visited → 5 Rep"
    per_count = CATALOG.fancies[F["den-mother"]]
    assert fancy_facts(s, 0, per_count).endswith("Rep now, up to 6")


def test_keeping_a_fancy_dragon_shows_what_it_pays_and_its_goal() -> None:
    s = start(2, 4)
    kept = [c for c in choices(s) if c.text.startswith("keep ")]
    assert kept and all(c.card is not None for c in kept)
    for choice in kept:
        card = CATALOG.fancies[CATALOG.fancy_by_id[str(choice.card)]]
        assert choice.facts == fancy_facts(s, s.stack[-1][1], card)
        assert " → " in choice.facts and "Rep" in choice.facts.rsplit(" → ", 1)[1]


def test_the_terminal_hand_shows_each_fancy_dragon_s_progress_to_its_owner_only() -> None:
    table = _candle_game()
    style = Style(False)
    mine = table.screen_view(0, style)
    line = "Roamin' Candle — Moon: 1/7 Shops visited → 5 Rep"
    assert mine["fancy_goals"] == {"roamin-candle": line[len("Roamin' Candle "):]}
    cards = Cards(CATALOG)
    assert line in " ".join(strip_ansi(x).strip() for x in me_lines(style, mine["view"], mine,
                                                                    cards, 200))
    assert f"  {line}" in [strip_ansi(x) for x in hand_detail(style, mine["view"], mine, cards)]
    theirs = table.screen_view(1, style)
    assert "roamin-candle" not in repr(theirs["fancy_goals"]) + repr(theirs["view"])


def test_the_web_sends_the_goals_to_their_owner_only_in_its_language() -> None:
    s = _candle_game().state
    mine = view_in(s, 0, "en")["players"]
    assert mine[0]["fancy_goals"] == {"roamin-candle": "— Moon: 1/7 Shops visited → 5 Rep"}
    assert "fancy_goals" not in mine[1]
    assert "roamin-candle" not in repr(view_in(s, 1, "en")) + repr(view_in(s, None, "en"))
    ja = view_in(s, 0, "ja")["players"][0]["fancy_goals"]["roamin-candle"]
    assert ja.startswith("— 月：") and "1" in ja and "評判5" in ja
