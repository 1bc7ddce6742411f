"""The game's own words in Japanese (the ``game`` domain, docs/i18n.md): every card text is
generated from the card data, every legal action of whole random games reads in Japanese with
its facts and log lines, the engine's errors say what was wrong in Japanese, and English stays
exactly as it was. "No English" means no Latin word is left once the proper nouns (card, Shop
ability, Companion and achievement names, and the players' names) are taken out."""

from __future__ import annotations

import pickle
import random
import re
from collections.abc import Iterable
from dataclasses import replace

import pytest

from flamecraft.core import cardtext as core_cardtext
from flamecraft.core.board import CATALOG
from flamecraft.core.cards import Reward
from flamecraft.core.describe import Choice, choices, describe
from flamecraft.core.engine import apply, legal_actions, parse_action, start, text
from flamecraft.core.errors import FlamecraftError, GameOverError, IllegalActionError, error_text
from flamecraft.core.events import Event, log_text
from flamecraft.core.goals import MEASURE_FUNCTIONS
from flamecraft.core.tr import same
from flamecraft.display import localized as cardtext
from flamecraft.display.i18n import translator
from flamecraft.session.notes import table_notes
from flamecraft.session.seats import SetupError, check_names

JA = translator("ja", "game").gettext
PROPER_NOUNS = sorted(
    {c.name for c in CATALOG.shops} | {c.ability_name for c in CATALOG.shops if c.ability_name}
    | {c.name for c in CATALOG.artisans} | {c.name for c in CATALOG.enchantments}
    | {c.name for c in CATALOG.fancies} | {c.name for c in CATALOG.companions}
    | {c.name for c in CATALOG.achievements}, key=len, reverse=True)
LATIN_WORD = re.compile(r"[A-Za-z]{2,}|\b[A-Za-z]\b")
JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")


def english_left(line: str, names: Iterable[str] = ()) -> list[str]:
    """The Latin words of ``line`` once the proper nouns and ``names`` are taken out."""
    for name in sorted({*PROPER_NOUNS, *names}, key=len, reverse=True):
        line = line.replace(name, " ")
    return LATIN_WORD.findall(line)


# --- card texts ------------------------------------------------------------------------------

@pytest.mark.parametrize("card_id", sorted(cardtext.card_texts("en")))
def test_every_card_reads_in_japanese(card_id: str) -> None:
    """Generated from the data: in Japanese, not the English text, no English word left."""
    ja, en = cardtext.card_text(card_id, "ja"), cardtext.card_text(card_id, "en")
    if not en:  # a starter Shop: no ability in any language
        assert ja == ""
        return
    assert JAPANESE.search(ja) and ja != en
    assert not english_left(ja), f"{card_id}: {ja}"
    assert ja.endswith("。")


def test_english_card_texts_are_the_printed_ones() -> None:
    for shop in CATALOG.shops:
        assert cardtext.card_text(shop.id, "en") == shop.ability_text
    for fancy in CATALOG.fancies:
        assert cardtext.card_text(fancy.id, "en") == fancy.text
    for companion in CATALOG.companions:
        assert cardtext.card_text(companion.id, "en") == companion.text
    for achievement in CATALOG.achievements:
        assert cardtext.card_text(achievement.id, "en") == achievement.text


def test_card_texts_say_the_cards_numbers() -> None:
    """The templates carry the data's numbers: Scone Ranger spends 3 Bread and 2 Meat for 5
    Reputation and an Artisan Dragon; Dragon Hoard Bank returns up to 3 Goods."""
    assert cardtext.card_text("scone-ranger", "ja") == (
        "パン3枚、肉2枚を支払う：評判5、働きドラゴン1枚を獲得する。")
    assert "最大3枚" in cardtext.card_text("dragon-hoard-bank", "ja")
    assert cardtext.card_text("pan", "ja") == (
        "働きドラゴンを1枚引く（公園か、働きデッキの一番上から）。")


def test_a_new_card_needs_no_hand_translation() -> None:
    """A changed card's text follows its data: new numbers and rewards, still all Japanese."""
    base = CATALOG.fancies[CATALOG.fancy_by_id["archi-tail"]]
    changed = replace(base, goal=replace(base.goal, at_least=9), reward=Reward(rep=11, coins=2))
    words = core_cardtext.fancy_text(changed, JA)
    assert words == "お店を9軒以上完成させた：評判11、コイン2枚を獲得する。"
    per = replace(base, rep_per=3, rep_max=12, reward=Reward())
    assert core_cardtext.fancy_text(per, JA) == "完成させたお店1つにつき評判3を獲得する（最大12）。"


def test_every_goal_measure_has_words() -> None:
    """A measure (a new Fancy goal or achievement) must be given a condition and a counted
    thing, in English and Japanese."""
    measures = set(MEASURE_FUNCTIONS)
    assert set(core_cardtext.MEASURE_CONDITIONS) == measures
    assert set(core_cardtext.MEASURE_THINGS) == measures
    for measure in measures:
        ja = core_cardtext.condition_words(measure, 2, 3, JA)
        assert "3" in ja and not english_left(ja), ja


def test_shop_details_and_rating_titles_in_japanese() -> None:
    for shop in CATALOG.shops:
        details = cardtext.card_details(shop.id, "ja")
        for line in [details["icon"], *details["slots"]]:
            assert not english_left(line), line
    assert cardtext.card_details("pan", "ja") == {"type": "パン", "type_name": "パンのドラゴン"}
    assert cardtext.card_details("pan", "en") == {"type": "Bread", "type_name": "Bread Dragon"}
    for _, title in CATALOG.ratings:
        ja = cardtext.rating_title(title, "ja")
        assert JAPANESE.search(ja) and not english_left(ja)
        assert cardtext.rating_title(title, "en") == title
    with pytest.raises(KeyError, match="no card with id 'nope'"):
        cardtext.card_text("nope", "ja")


# --- whole games -------------------------------------------------------------------------------

def _check_japanese(label: str, line: str, names: tuple[str, ...]) -> None:
    assert line and not english_left(line, names), f"{label}: {line!r}"


def _play(players: int, companions: bool, seed: int) -> int:
    """A whole random game, every choice and log line checked in both languages; returns how
    many actions were described."""
    s = start(players, seed, companions=companions)
    names = s.options.player_names()
    rng = random.Random(seed)
    described = 0
    while legal_actions(s):
        english = choices(s)
        japanese = choices(s, JA)
        for en, ja in zip(english, japanese, strict=True):
            assert en.text == ja.text == en.words  # the stable text never changes
            assert en.label == (f"{en.text} {en.facts}" if en.facts else en.text)
            _check_japanese("choice", ja.words, names)
            if ja.facts:
                _check_japanese("facts", ja.facts, names)
        described += len(english)
        trace: list[Event] = []
        action = rng.choice(legal_actions(s))
        after = apply(s, action, trace)
        trace += table_notes(s, after)
        for e in trace:
            for seat in (None, *range(players)):
                line = e.seen_by(seat)
                assert log_text(e, seat) == line  # English: the stream as it was
                said = log_text(e, seat, JA)
                if line is None:
                    assert said is None
                else:
                    assert said is not None
                    _check_japanese("log", said, names)
        s = after
    return described


@pytest.mark.parametrize("players", [1, 2, 3, 4, 5])
@pytest.mark.parametrize("companions", [False, True])
def test_whole_games_read_in_japanese(players: int, companions: bool) -> None:
    assert _play(players, companions, seed=100 * players + companions) > 100


def test_describe_keeps_its_english_and_pickles() -> None:
    s = start(2, 3)
    action = legal_actions(s)[0]
    en, ja = describe(s, action), describe(s, action, JA)
    assert en.words == en.text == text(s, action)
    assert ja.text == en.text and ja.words != en.words
    assert ja.label == f"{ja.words} {ja.facts}"
    assert pickle.loads(pickle.dumps(ja)) == ja
    assert Choice("gather", "", None).label == "gather"  # made without words: its text


# --- errors ------------------------------------------------------------------------------------

def test_illegal_action_errors_in_japanese() -> None:
    s = start(2, 1)
    with pytest.raises(IllegalActionError) as caught:
        parse_action(s, "dance")
    exc = caught.value
    assert error_text(exc) == str(exc)
    assert str(exc).startswith("'dance' is not a legal action now: P")
    ja = error_text(exc, JA)
    assert ja.startswith("'dance'は今できるアクションではありません：")
    # what may be typed stays the stable text
    assert "P1が選んでいるのは「残す伝説ドラゴン」です。できるアクション：keep " in ja
    with pytest.raises(IllegalActionError) as caught:
        parse_action(s, "99")
    assert error_text(caught.value, JA).startswith("アクション番号99はありません")
    with pytest.raises(IllegalActionError) as caught:
        apply(s, (99, 0, 0, 0))
    assert "今できるアクションではありません" in error_text(caught.value, JA)


def test_game_over_and_setup_errors_in_japanese() -> None:
    s = start(1, 2)
    rng = random.Random(2)
    while legal_actions(s):
        s = apply(s, rng.choice(legal_actions(s)))
    with pytest.raises(GameOverError) as over:
        parse_action(s, "gather")
    assert error_text(over.value, JA) == "ゲームは終了しています：これ以上アクションはできません"
    with pytest.raises(FlamecraftError) as setup:
        start(7, 1)
    assert str(setup.value) == "players must be 1–5, not 7"
    assert error_text(setup.value, JA) == "プレイ人数は1–5人です（7人ではできません）"
    with pytest.raises(SetupError) as names:
        check_names(["Ann", "ann"])
    assert error_text(names.value, JA) == "同じ名前のプレイヤーがいます"
    assert error_text(ValueError("plain")) == error_text(ValueError("plain"), JA) == "plain"


def test_the_identity_is_english() -> None:
    assert same("visit {shop}") == "visit {shop}"
    assert core_cardtext.printed(same) and not core_cardtext.printed(JA)
