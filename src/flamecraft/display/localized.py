"""Every card's text in a player's language, for the terminal and the web alike.

English shows the cards as printed (the data's texts); Japanese generates each text from the
card data through the templates of ``core/cardtext.py``, translated by the ``game``
catalogue, so a new card needs no hand translation: its numbers, Goods and rewards fill the
templates. Card names stay in English in every language (proper nouns, as printed).

``extract_titles`` is a Babel extractor (``locale/game.cfg``): the solo rating titles are data
(``data/solo.toml``), not code, and reach the catalogue through it.
"""

from __future__ import annotations

import tomllib
from collections.abc import Collection, Iterator, Mapping
from functools import cache
from typing import IO, Any

from ..core import cardtext
from ..core.board import CATALOG, ROW_SIZE
from ..core.cards import DECKS, Achievement, CompanionCard, FancyCard, Reward, ShopCard
from ..core.goods import GOOD_NAMES
from ..core.tr import Translate
from .i18n import translator

# The kinds of card, as the web's catalogue (GET /api/cards) names them.
KINDS = ("shops", "artisans", "enchantments", "fancies", "companions", "achievements")


def tr_for(lang: str) -> Translate:
    """The ``game`` domain's translate function for ``lang`` (English: the identity)."""
    return translator(lang, "game").gettext


@cache
def _card_index() -> dict[str, tuple[str, int]]:
    c = CATALOG
    cards: dict[str, list[Any]] = {
        "shops": list(c.shops), "artisans": list(c.artisans),
        "enchantments": list(c.enchantments), "fancies": list(c.fancies),
        "companions": list(c.companions), "achievements": list(c.achievements)}
    return {card.id: (kind, k) for kind in KINDS for k, card in enumerate(cards[kind])}


def card_text(card_id: str, lang: str) -> str:
    """A card's rules text in ``lang``: a Shop's ability ("" for a starter Shop), an Artisan
    Dragon's fire-up, an Enchantment's cost and reward, a Fancy Dragon's goal and reward, a
    Companion's or a solo achievement's text. A KeyError names an unknown card id."""
    try:
        kind, k = _card_index()[card_id]
    except KeyError:
        raise KeyError(f"no card with id {card_id!r}") from None
    tr = tr_for(lang)
    c = CATALOG
    if kind == "shops":
        return cardtext.ability_text(c, c.shops[k], tr)
    if kind == "artisans":
        return cardtext.fire_up_text(c, c.artisans[k].type, tr)
    if kind == "enchantments":
        return cardtext.enchantment_text(c.enchantments[k], tr)
    if kind == "fancies":
        return cardtext.fancy_text(c.fancies[k], tr)
    if kind == "companions":
        return cardtext.companion_text(c, c.companions[k], tr)
    return cardtext.achievement_text(c.achievements[k], tr)


def card_texts(lang: str) -> dict[str, str]:
    """Every card's text in ``lang``, by card id (what a client shows on hover)."""
    return {card_id: card_text(card_id, lang) for card_id in _card_index()}


def dragon_type(good: int, lang: str) -> str:
    """An Artisan Dragon type's name in ``lang``: ``Bread Dragon``, パンのドラゴン."""
    tr = tr_for(lang)
    return tr("{good} Dragon").format(good=tr(GOOD_NAMES[good]))


def card_details(card_id: str, lang: str) -> dict[str, Any]:
    """What a card shows besides its text, in ``lang``: for a Shop its icon's yield and its
    slots (``accepts → reward``); for an Artisan Dragon its type (the Good) and the type's
    name. Empty for other kinds."""
    kind, k = _card_index()[card_id]
    tr = tr_for(lang)
    if kind == "shops":
        shop = CATALOG.shops[k]
        return {"icon": cardtext.icon_words(shop, tr),
                "slots": [cardtext.slot_words(shop, slot, tr) for slot in range(3)]}
    if kind == "artisans":
        good = CATALOG.artisans[k].type
        return {"type": tr(GOOD_NAMES[good]), "type_name": dragon_type(good, lang)}
    return {}


def rating_title(title: str, lang: str) -> str:
    """A solo rating's title (``view()["rating"]``) in ``lang``."""
    return cardtext.rating_title(title, tr_for(lang))


def solo_turns(deck: str) -> int:
    """The most turns a solo game with ``deck`` can last: Town Bustle takes an Enchantment out
    of the row each turn nothing else did, so the row's refills empty the deck after at most
    as many turns as it has cards beyond the first row, and the end trigger gives one more
    turn (rules.md, "Solo mode")."""
    cards = sum(1 for e in CATALOG.enchantments if DECKS[e.deck] == deck)
    return cards - ROW_SIZE + 1


def solo_intro(deck: str, lang: str) -> list[str]:
    """What a solo game adds to the rules, said as it starts (the terminal and the web):
    Town Bustle, the turn limit it makes, the achievements and the rating titles, so a first
    solo game is not a surprise at its end."""
    tr = tr_for(lang)
    titles = tr(", ").join(tr("{title} ({least}+)").format(title=rating_title(title, lang),
                                                          least=least)
                          for least, title in CATALOG.ratings)
    return [
        tr("Solo: you play alone against the Town, for your best score."),
        tr("Town Bustle, at the end of each of your turns: if no Enchantment left the row "
           "this turn, the oldest one there leaves the game; then the oldest dragon in the "
           "Park goes to the bottom of the Artisan deck."),
        tr("So the Enchantment deck runs out: a solo game lasts at most {n} turns.").format(
            n=solo_turns(deck)),
        tr("{n} achievements each pay their Reputation the first time you meet them.").format(
            n=len(CATALOG.achievements)),
        tr("Your final Reputation earns a title: {titles}.").format(titles=titles),
    ]


def extract_titles(fileobj: IO[bytes], keywords: Mapping[str, Any],
                   comment_tags: Collection[str], options: Mapping[str, Any]
                   ) -> Iterator[tuple[int, str, str, list[str]]]:
    """Babel extraction method for ``data/solo.toml``: each rating title is a msgid."""
    text = fileobj.read().decode("utf-8")
    data = tomllib.loads(text)
    lines = text.splitlines()
    for rating in data.get("rating", []):
        title = rating["title"]
        line = next((n for n, row in enumerate(lines, 1) if f'"{title}"' in row), 0)
        yield line, "", title, ["a solo rating title (data/solo.toml)"]


class CardTexts:
    """The texts printed on cards, in the player's language: English is the printed text,
    other languages are generated from the card data (``core/cardtext.py``)."""

    def __init__(self, lang: str):
        self.lang = lang
        self.tr = tr_for(lang)
        self.words = translator(lang, "terminal").gettext

    def ability(self, card: ShopCard) -> str:
        return cardtext.ability_text(CATALOG, card, self.tr)

    def fancy(self, card: FancyCard) -> str:
        return cardtext.fancy_text(card, self.tr)

    def companion(self, card: CompanionCard) -> str:
        return cardtext.companion_text(CATALOG, card, self.tr)

    def achievement(self, card: Achievement) -> str:
        return cardtext.achievement_text(card, self.tr)

    def reward(self, reward: Reward) -> str:
        return cardtext.reward_words(reward, self.tr)

    def fire_up(self, artisan_type: int) -> str:
        return cardtext.fire_up_text(CATALOG, artisan_type, self.tr)

    def bot_note(self, note: str) -> str:
        """A bot's one-line description (``bots.BOT_NOTES``: the game catalogue's words)."""
        return self.tr(note) if note else note
