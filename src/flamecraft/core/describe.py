"""Every legal action described with its facts: what it costs, what it gives, where it is.

One function for every client (the terminal's numbered list, the web's choice list and hover
cards): the action's stable text stays as it is (scripts and replays type it), and ``facts``
adds what a player needs to decide, e.g. ``place Honey on Drake of Cakes slot 1 → 3 Rep``.
The facts read only what the seat to act may see (the public board and its own cards), so a
description never tells a seat anything its view does not; the numbers come from the rules'
own functions (``goals.fancy_value``, ``turn.castable``…), never recomputed here.

What a choice says it gives is a ``Promise`` (numbers) the words are made from, and it never
holds what the rules will not give at that moment: a Potion swap onto a dragon that has fired
this turn (ruling 14), a draw from an empty deck (ruling 18), a Plant gift with nothing to
give, a trade the seat cannot pay. ``tests/test_describe.py`` applies every choice of whole
random games and holds each promise to what came of it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final
from unicodedata import east_asian_width

from . import actions as A
from . import kinds as K
from .actions import Action, action_text
from .board import (
    ART_TYPE,
    CATALOG,
    SHOPS,
    dragons_at,
    locate,
    placements,
    recipients,
    town_dragons,
)
from .cards import ICON_COIN, ICON_DRAGON, ICON_RAINBOW, EnchantmentCard, FancyCard, Reward
from .cardtext import ability_text, companion_text
from .effects import OPS
from .engine import legal_actions, text
from .frames import (
    D_ACTION,
    D_CHOOSE_TYPE,
    D_GIFT,
    D_GIFT_EACH,
    D_PLACE,
    D_SWAP_FIRE,
    GIFT_EACH_EFFECT,
    GIFT_EFFECT,
    IN_HAND,
    IN_PARK,
    PLACE_EFFECT,
)
from .goals import fancy_value, measure
from .goods import COIN, GOOD_NAMES, NUM_GOODS
from .kinds import ACTION_KINDS
from .state import GameState
from .tr import N_, Translate, same
from .turn import occupants

GOOD_ICONS = (N_("[Br]"), N_("[Me]"), N_("[Ir]"), N_("[Po]"), N_("[Cr]"), N_("[Pl]"))
GOOD_WORDS = GOOD_NAMES
RAINBOW = "★"
SHORT = 60  # the longest card text in a choice's facts, in display columns
NO_CAP = 999  # the ``rep_max`` of a per-item Fancy reward without a "max" (cards.py)
# What firing up each Artisan type does, in a few words (data/fire_ups.toml has the rules).
FIRE_UP_SHORT = (
    N_("draw an Artisan Dragon"),
    N_("place a dragon from your hand"),
    N_("gain 2 of one Good here"),
    N_("swap it, fire up the one arriving"),
    N_("gain 3 different Goods"),
    N_("gift 1 Good → 2 Rep"),
)
# What a Fancy Dragon's goal counts, in a few words (``cards.MEASURES``).
MEASURE_WORDS = {
    "max_same_type_in_a_shop": N_("most of one type in a Shop"),
    "max_distinct_types_in_a_shop": N_("most types in a Shop"),
    "max_enchantments_in_a_shop": N_("most Enchantments in a Shop"),
    "coins_match_empty_coin_slots": N_("Coins match empty Coin slots"),
    "most_of_one_good": N_("most of one Good"),
    "total_goods": N_("Goods held"),
    "odd_good_types": N_("odd Good types"),
    "good_types_with_at_least": N_("Good types held"),
    "hand_size": N_("dragons in hand"),
    "fancy_held": N_("Fancy Dragons held"),
    "full_shops": N_("full Shops"),
    "shops_with_enchantments_at_least": N_("Shops with Enchantments"),
    "most_dragons_of_one_type_in_town": N_("most of one type in Town"),
    "showpiece_shops": N_("full Shops with 3 Enchantments"),
    "town_shops": N_("Shops in Town"),
    "enchantments_cast": N_("Enchantments cast"),
    "distinct_cast_icons": N_("icons cast"),
    "max_variable_sets": N_("most sets cast"),
    "dragons_placed": N_("dragons placed"),
    "shops_completed": N_("Shops completed"),
    "gifts_given": N_("gifts given"),
    "shops_visited": N_("Shops visited"),
    "sun_scored": N_("Sun Dragons scored"),
    "coins": N_("Coins"),
    "fancy_scored": N_("Fancy Dragons scored"),
}


@dataclass(frozen=True, slots=True)
class Promise:
    """What a choice's facts say it gives the chooser, as numbers: the facts' words are made
    from it, so a test can hold every choice to what applying it gives (``pays`` is what it
    costs on the way). A gain that the rules would not give (a dragon that has fired, an
    empty deck, nothing to gift) is never in it, nor in the words."""

    rep: int = 0
    coins: int = 0
    goods: tuple[int, ...] = (0,) * NUM_GOODS  # Goods of named types
    any_goods: int = 0  # Goods whose type is chosen on the way
    artisans: int = 0  # Artisan Dragons drawn
    fancies: int = 0  # Fancy Dragons drawn
    pays: int = 0  # Goods or Coins paid, spent or gifted on the way

    def __reduce__(self) -> tuple[type[Promise], tuple[int, int, tuple[int, ...], int, int,
                                                         int, int]]:
        """Pickled by its fields, as ``Choice`` is."""
        return (Promise, (self.rep, self.coins, self.goods, self.any_goods, self.artisans,
                          self.fancies, self.pays))


NOTHING: Final = Promise()


@dataclass(frozen=True, slots=True)
class Choice:
    """One legal action as a player reads it."""

    text: str  # the action's stable text, unchanged (``engine.text``): what is typed or sent
    facts: str  # what it costs and gives, in the reader's language; "" when nothing to add
    card: str | None  # the id of the card the action concerns (for hover cards), or None
    words: str = ""  # the action in the reader's language ("" or ``text`` in English)
    promise: Promise = NOTHING  # what ``facts`` says it gives, as numbers

    @property
    def label(self) -> str:
        shown = self.words or self.text
        return f"{shown} {self.facts}" if self.facts else shown

    def __reduce__(self) -> tuple[type[Choice], tuple[str, str, str | None, str, Promise]]:
        """Pickled by its fields (compiled by mypyc, a frozen dataclass refuses the attribute
        assignments pickle's default makes), as ``state.Options`` is."""
        return (Choice, (self.text, self.facts, self.card, self.words, self.promise))


def _plural(n: int, word: str, words: str, tr: Translate) -> str:
    """``1 Coin`` / ``2 Coins``: ``word`` and ``words`` are msgids with ``{n}``."""
    return (tr(word) if n == 1 else tr(words)).format(n=n)


def _coins(n: int, tr: Translate) -> str:
    return _plural(n, N_("{n} Coin"), N_("{n} Coins"), tr)


def reward_facts(reward: Reward, rep: int = 0, tr: Translate = same) -> str:
    """A reward in short words: ``3 Rep + 1 Coin``; "" for nothing."""
    parts = []
    if reward.rep + rep:
        parts.append(tr("{n} Rep").format(n=reward.rep + rep))
    if reward.coins:
        parts.append(_coins(reward.coins, tr))
    if reward.artisan:
        parts.append(_plural(reward.artisan, N_("{n} Artisan Dragon"),
                             N_("{n} Artisan Dragons"), tr))
    if reward.fancy:
        parts.append(_plural(reward.fancy, N_("{n} Fancy Dragon"), N_("{n} Fancy Dragons"), tr))
    if reward.good_choice:
        parts.append(_plural(reward.good_choice, N_("{n} Good of your choice"),
                             N_("{n} Goods of your choice"), tr))
    return tr(" + ").join(parts)


def _goods_words(counts: list[int] | tuple[int, ...], coins: int = 0,
                 tr: Translate = same) -> str:
    parts = [tr("{n} {good}").format(n=n, good=tr(GOOD_WORDS[g]))
             for g, n in enumerate(counts) if n]
    if coins:
        parts.append(_coins(coins, tr))
    return " ".join(parts)


def good_icon(good: int, tr: Translate = same) -> str:
    """A Good as a short icon: ``[Br]`` (in Japanese ``[パ]``: as wide, one character)."""
    return tr(GOOD_ICONS[good])


def shop_icon(shop: int, tr: Translate = same) -> str:
    """A Shop's icon as text: a Good's letters, ★ (any Good), +Dr or +1$."""
    card = SHOPS[shop]
    if card.icon < NUM_GOODS:
        return good_icon(card.icon, tr)
    if card.icon == ICON_RAINBOW:
        return RAINBOW
    if card.icon == ICON_DRAGON:
        return (tr("+{n}Dr") if card.icon_amount > 1 else tr("+Dr")).format(n=card.icon_amount)
    assert card.icon == ICON_COIN
    return f"+{card.icon_amount}$"


def gathered(s: GameState, shop: int, tr: Translate = same) -> str:
    """What gathering at a Shop gives now: its icon (a dragon Shop's only while a dragon is
    left to draw: ruling 18), its dragons' and Enchantments' Goods."""
    drawless = SHOPS[shop].icon == ICON_DRAGON and not (s.artisan_deck or s.park)
    icons = [] if drawless else [shop_icon(shop, tr)]
    icons += [good_icon(ART_TYPE[d], tr) for d in dragons_at(s, shop)]
    icons += [good_icon(CATALOG.enchantments[e].icon, tr) for e in s.shop_ench[shop]]
    return "".join(icons) or tr("nothing")


def enchantment_facts(card: EnchantmentCard, sets: int = 1, tr: Translate = same) -> str:
    """``(3 Meat 2 Crystal 1 Plant → 6 Rep)``: the cost of ``sets`` sets and the reward."""
    cost = _goods_words([n * sets for n in card.cost], card.printed_coins, tr) or tr("nothing")
    rep = card.rep_by_sets[sets - 1] if card.variable else 0
    gives = reward_facts(card.reward, rep, tr) or tr("nothing")
    return tr("({cost} → {gives})").format(cost=cost, gives=gives)


def fancy_facts(s: GameState, p: int, card: FancyCard, tr: Translate = same) -> str:
    """A Fancy Dragon's goal, how far p stands from it and what it pays: ``— Moon: 6/7 Shops
    visited → 8 Rep`` (a fixed goal: its printed reward, ``, met`` once it is), ``— Moon:
    3 dragons in hand → 3 Rep now, up to 6`` (a goal that pays by the count). Said when the
    card is kept and in its owner's hand, so the reward is known before the goal is met."""
    kind = tr("Sun") if card.sun else tr("Moon")
    now = fancy_value(s, p, card)
    per_item = bool(card.rep_table or card.rep_per)
    if card.goal.spend is not None:
        goal = tr("spend {goods}").format(goods=_goods_words(card.goal.spend, tr=tr))
    else:
        value = str(measure(s, p, card))
        if card.goal.at_least is not None and not per_item:
            value += f"/{card.goal.at_least}"  # how far from the goal
        words = MEASURE_WORDS.get(card.goal.measure, card.goal.measure)
        goal = tr("{value} {measure}").format(value=value, measure=tr(words))
    extras = reward_facts(Reward(coins=card.reward.coins, artisan=card.reward.artisan,
                                 fancy=card.reward.fancy, good_choice=card.reward.good_choice),
                          tr=tr)
    if per_item:
        most = max(rep for _, rep in card.rep_table) if card.rep_table else card.rep_max
        pays = tr("{n} Rep now").format(n=now)
        if most < NO_CAP:
            pays = tr("{n} Rep now, up to {most}").format(n=now, most=most)
    else:
        pays = tr("{n} Rep").format(n=max(card.reward.rep, 1))
    if extras:
        pays = tr("{rep} + {extras}").format(rep=pays, extras=extras)
    if now and not per_item:
        pays = tr("{pays}, met").format(pays=pays)
    return tr("— {kind}: {goal} → {pays}").format(kind=kind, goal=goal, pays=pays)


def fancy_goals(s: GameState, p: int, tr: Translate = same) -> dict[str, str]:
    """``fancy_facts`` of each of p's unscored Fancy Dragons, by card id: for p's own screens
    only (the cards are hidden from everyone else)."""
    return {CATALOG.fancies[f].id: fancy_facts(s, p, CATALOG.fancies[f], tr) for f in s.fancy[p]}


def _columns(text: str) -> int:
    """Display columns (East Asian wide characters take 2): ``len`` for English text."""
    return sum(2 if east_asian_width(c) in "WF" else 1 for c in text)


def short(words: str, width: int = SHORT) -> str:
    """A card's text cut at a word to ``width`` columns (the hover card has all of it); a
    text without spaces (Japanese) is cut between characters."""
    if _columns(words) <= width:
        return words
    cut, used = 0, 0
    while used + _columns(words[cut]) <= width - 1:
        used += _columns(words[cut])
        cut += 1
    return words[:cut].rsplit(" ", 1)[0].rstrip(",;:、。") + "…"


def _good(item: int, tr: Translate) -> str:
    return "$" if item == COIN else good_icon(item, tr)


def _where(s: GameState, dragon: int, tr: Translate) -> str:
    slot = locate(s, dragon)
    return tr("at {shop}").format(shop=SHOPS[slot // 3].name) if slot >= 0 else ""


def _op_param(s: GameState, key: str) -> Reward | None:
    """The per-gift reward of the gift decision on top of the stack (Plant fire-up: 2 Rep)."""
    frame = s.stack[-1]
    if frame[0] != D_GIFT:
        return None
    value = OPS[frame[GIFT_EFFECT]][frame[GIFT_EFFECT + 1]].params.get(key)
    return value if isinstance(value, Reward) else None


def _drawable(s: GameState, reward: Reward, rep: int = 0,
              pays: int = 0) -> tuple[Promise, str]:
    """A reward as it will be gained now: the draws an empty deck (and Park) cannot give are
    left out (ruling 18), and the words say why."""
    artisans = min(reward.artisan, len(s.artisan_deck) + len(s.park))
    fancies = min(reward.fancy, len(s.fancy_deck))
    note = ""
    if fancies < reward.fancy:
        note = N_("no Fancy Dragon left to draw")
    elif artisans < reward.artisan:
        note = N_("no Artisan Dragon left to draw")
    return Promise(rep=reward.rep + rep, coins=reward.coins, any_goods=reward.good_choice,
                   artisans=artisans, fancies=fancies, pays=pays), note


def promise_words(promise: Promise, tr: Translate = same, note: str = "") -> str:
    """A promise's gains in short words (``3 Rep + 1 Coin``), ``nothing`` when it has none;
    ``note`` (a msgid) says what the card would give that the rules will not."""
    words = reward_facts(Reward(coins=promise.coins, artisan=promise.artisans,
                                fancy=promise.fancies, good_choice=promise.any_goods),
                         promise.rep, tr)
    goods = _goods_words(promise.goods, tr=tr)
    words = tr(" + ").join(w for w in (goods, words) if w) or tr("nothing")
    return tr("{gains} ({why})").format(gains=words, why=tr(note)) if note else words


def _fire_promise(s: GameState, p: int, dragon: int, here: int) -> tuple[str, Promise]:
    """What firing up ``dragon`` at ``here`` (a Shop, ``IN_HAND`` or ``IN_PARK``) gives now, as
    a msgid and numbers: what the rules will not do is said, never promised."""
    kind = ART_TYPE[dragon]
    if kind == 0:  # Bread: draw an Artisan Dragon
        if not (s.artisan_deck or s.park):
            return N_("nothing (no Artisan Dragon left to draw)"), NOTHING
        return FIRE_UP_SHORT[kind], Promise(artisans=1)
    if kind == 1:  # Meat: place from the hand, anywhere
        if not placements(s, s.hand[p], -1):
            return N_("nothing (no dragon in your hand fits an empty slot)"), NOTHING
        return FIRE_UP_SHORT[kind], NOTHING
    if kind == 2:  # Iron: 2 of one Good here (the Iron Dragon's own at least)
        return FIRE_UP_SHORT[kind], Promise(any_goods=2)
    if kind == 3:  # Potion: swap with another Town dragon, fire up the one arriving
        if here < 0 or locate(s, dragon) < 0:
            return N_("nothing (a Potion Dragon swaps only in Town)"), NOTHING
        others = [d for d, _shop in town_dragons(s) if d != dragon]
        if not others:
            return N_("nothing (no other dragon in Town)"), NOTHING
        if all(s.fired >> d & 1 for d in others):
            return N_("swap it; every other dragon has fired this turn: no fire-up"), NOTHING
        return FIRE_UP_SHORT[kind], NOTHING
    if kind == 4:  # Crystal: 3 different Goods
        return FIRE_UP_SHORT[kind], Promise(any_goods=3)
    if not (sum(s.goods[p]) or s.coins[p]):  # Plant: gift 1 Good, then 2 Rep
        return N_("nothing (no Good or Coin to gift)"), NOTHING
    return FIRE_UP_SHORT[kind], Promise(rep=2, pays=1)


def _gather_promise(s: GameState, p: int, shop: int, pays: int = 0) -> Promise:
    """What gathering at a Shop gives now (``gathered`` in numbers)."""
    card = SHOPS[shop]
    goods = [0] * NUM_GOODS
    coins = any_goods = artisans = 0
    if card.icon < NUM_GOODS:
        goods[card.icon] += 1
    elif card.icon == ICON_RAINBOW:
        any_goods = 1
    elif card.icon == ICON_COIN:
        coins = card.icon_amount
    elif card.icon == ICON_DRAGON:
        artisans = min(1, len(s.artisan_deck) + len(s.park))
    for d in dragons_at(s, shop):
        goods[ART_TYPE[d]] += 1
    for e in s.shop_ench[shop]:
        goods[CATALOG.enchantments[e].icon] += 1
    return Promise(coins=coins, goods=tuple(goods), any_goods=any_goods, artisans=artisans,
                   pays=pays)


def _can_pay_trade(s: GameState, p: int, ability: int) -> bool:
    """Whether p can pay an ability that is a trade and nothing else ("Return 1 Meat: …"):
    unpaid, it does nothing (further ruling 17), so its choice must not read as a gain."""
    ops = OPS[ability] if ability >= 0 else ()
    if len(ops) != 1 or ops[0].name != "trade":
        return True
    params, goods = ops[0].params, s.goods[p]
    if "give" in params:
        return all(goods[g] >= params["give"][g] for g in range(NUM_GOODS))
    if "give_any" in params:
        return bool(sum(goods) >= params["give_any"])
    if "give_same" in params:
        return any(n >= params["give_same"] for n in goods)
    if "give_coins" in params:
        return bool(s.coins[p] >= params["give_coins"])
    return True


def _one_good(good: int, n: int = 1, pays: int = 0) -> Promise:
    goods = [0] * NUM_GOODS
    goods[good] = n
    return Promise(goods=tuple(goods), pays=pays)


def _facts(s: GameState, p: int, action: Action,
           tr: Translate) -> tuple[str, str | None, Promise]:
    kind, a, b, c = action
    art = CATALOG.artisans
    frame = s.stack[-1] if s.stack else ()
    if kind == A.PLACE:
        slot = SHOPS[b].slots[c]
        cost = None
        if frame and frame[0] == D_PLACE and frame[PLACE_EFFECT] >= 0:
            cost = OPS[frame[PLACE_EFFECT]][frame[PLACE_EFFECT + 1]].params.get("cost")
        promise, note = _drawable(s, slot.reward, pays=sum(cost) if cost else 0)
        facts = tr("→ {reward}").format(reward=promise_words(promise, tr, note))
        if sum(1 for d in dragons_at(s, b)) == 2:
            facts = tr("{facts}, completes the Shop").format(facts=facts)
        if cost:
            facts = tr("(pay {goods}) {facts}").format(goods=_goods_words(cost, tr=tr),
                                                       facts=facts)
        return f"{good_icon(ART_TYPE[a], tr)} {facts}", art[a].id, promise
    if kind == A.CAST:
        spell = CATALOG.enchantments[a]
        rep = spell.rep_by_sets[b - 1] if spell.variable else 0
        promise, note = _drawable(s, spell.reward, rep,
                                  sum(spell.cost) * b + spell.printed_coins)
        paid = _goods_words([n * b for n in spell.cost], spell.printed_coins, tr) or tr("nothing")
        return (tr("({cost} → {gives})").format(cost=paid,
                                                gives=promise_words(promise, tr, note)),
                spell.id, promise)
    if kind in (A.REVEAL, A.SCORE_MOON):
        fancy = CATALOG.fancies[a]
        rep = fancy_value(s, p, fancy)
        if kind == A.REVEAL:
            spend = fancy.goal.spend
            extras = Reward(coins=fancy.reward.coins, artisan=fancy.reward.artisan,
                            fancy=fancy.reward.fancy, good_choice=fancy.reward.good_choice)
            promise, note = _drawable(s, extras, rep, sum(spend) if spend is not None else 0)
        else:
            promise, note = Promise(rep=rep), ""
        return (tr("→ {reward}").format(reward=promise_words(promise, tr, note)), fancy.id,
                promise)
    if kind == A.VISIT:
        owed = occupants(s, p, a)
        facts = tr("→ {goods}").format(goods=gathered(s, a, tr))
        if owed:
            names = s.options.player_names()
            facts = tr("{facts}, gift 1 to {players}").format(
                facts=facts, players=tr(" and 1 to ").join(names[q] for q in owed))
        return facts, SHOPS[a].id, _gather_promise(s, p, a, len(owed))
    if kind == A.GATHER and frame and frame[0] == D_ACTION:
        return (tr("→ {goods}").format(goods=gathered(s, frame[2], tr)), None,
                _gather_promise(s, p, frame[2]))
    if kind == A.GAIN_TWO:
        return good_icon(a, tr) * b, None, _one_good(a, b)
    if kind in (A.GAIN_GOOD, A.TAKE_GOOD):
        return good_icon(a, tr), None, _one_good(a)
    if kind == A.CHOOSE_TYPE and frame and frame[0] == D_CHOOSE_TYPE:
        n = frame[4] if frame[3] == 0 else min(frame[4], sum(1 for d in s.park
                                                            if ART_TYPE[d] == a))
        return good_icon(a, tr), None, _one_good(a, n)
    if kind == A.GAIN_SET:
        promise = Promise(goods=tuple(a >> g & 1 for g in range(NUM_GOODS)))
        return "".join(good_icon(g, tr) for g in range(NUM_GOODS) if a >> g & 1), None, promise
    if kind in (A.DRAW_DECK, A.DRAW_PARK):
        return ((tr("(unseen)") if kind == A.DRAW_DECK else good_icon(ART_TYPE[a], tr)),
                None if kind == A.DRAW_DECK else art[a].id, Promise(artisans=1))
    if kind == A.EXCHANGE_GOOD:
        return f"{good_icon(a, tr)} → {good_icon(b, tr)}", None, _one_good(b, pays=1)
    if kind == A.GIFT:
        facts = _good(a, tr)
        per = _op_param(s, "per")
        if per is not None and not per.is_empty():
            promise, note = _drawable(s, per, pays=1)
            return f"{facts} → {promise_words(promise, tr, note)}", None, promise
        return facts, None, Promise(pays=1)
    if kind == A.GIFT_EACH and frame and frame[0] == D_GIFT_EACH:
        op = OPS[frame[GIFT_EACH_EFFECT]][frame[GIFT_EACH_EFFECT + 1]]
        given = len(recipients(s, p))
        rep = op.params.get("per_gift_rep", 0) * given
        return ((tr("→ {n} Rep").format(n=rep) if rep else ""), None,
                Promise(rep=rep, pays=given))
    if kind == A.PAY:
        coins = tr(" + {coins}").format(coins=_coins(c, tr)) if c else ""
        return f"{good_icon(a, tr) * b}{coins}", None, Promise(pays=b + c)
    if kind == A.FIRE:
        at = locate(s, a)
        here = at // 3 if at >= 0 else (IN_HAND if a in s.hand[p] else IN_PARK)
        place = _where(s, a, tr) or (tr("in your hand") if a in s.hand[p] else tr("in the Park"))
        does, promise = _fire_promise(s, p, a, here)
        return (tr("{icon} {place}: {does}").format(icon=good_icon(ART_TYPE[a], tr), place=place,
                                                    does=tr(does)),
                art[a].id, promise)
    if kind == A.SWAP:
        facts = f"{good_icon(ART_TYPE[a], tr)} {_where(s, a, tr)}"
        promise = NOTHING
        if frame and frame[0] == D_SWAP_FIRE:
            potion = frame[3]
            if s.fired >> a & 1:
                does = N_("nothing (it has fired this turn)")
            else:
                does, promise = _fire_promise(s, p, a, locate(s, potion) // 3)
            facts = tr("{facts}, then: {does}").format(facts=facts, does=tr(does))
        return facts, art[a].id, promise
    if kind == A.PICK:
        return f"{good_icon(ART_TYPE[a], tr)} {_where(s, a, tr)}", art[a].id, NOTHING
    if kind == A.USE_ABILITY and not _can_pay_trade(s, p, SHOPS[a].ability):
        said = short(ability_text(CATALOG, SHOPS[a], tr))
        return (tr("— {text} (nothing: you cannot pay)").format(text=said), SHOPS[a].id,
                NOTHING)
    facts, card = default_facts(s, p, action, tr)
    return facts, card, NOTHING


def default_facts(s: GameState, p: int, action: Action,
                  tr: Translate = same) -> tuple[str, str | None]:
    """The facts of an action kind that has none of its own (``_facts``), from its declared
    arguments: the first that names a thing says it — a Good or a Coin as its icon, a set of
    Goods as theirs, an Artisan Dragon as its type (and the card), a Fancy Dragon's goal as p
    stands, an Enchantment's cost and reward, a Shop's ability or a Companion's text. So a
    new kind is described without a line here."""
    kind = ACTION_KINDS.get(action[0])
    if kind is None:
        return "", None
    for i, arg in enumerate(kind.args):
        v = action[i + 1]
        t = arg.type
        if t == K.GOOD:
            return good_icon(v, tr), None
        if t == K.ITEM:
            return _good(v, tr), None
        if t == K.MASK:
            return "".join(good_icon(g, tr) for g in range(NUM_GOODS) if v >> g & 1), None
        if t == K.ARTISAN:
            return good_icon(ART_TYPE[v], tr), CATALOG.artisans[v].id
        if t == K.FANCY:
            fancy = CATALOG.fancies[v]
            return fancy_facts(s, p, fancy, tr), fancy.id
        if t == K.ENCHANTMENT:
            card = CATALOG.enchantments[v]
            return f"{good_icon(card.icon, tr)} {enchantment_facts(card, tr=tr)}", card.id
        if t == K.ABILITY:
            shop = SHOPS[v]
            return f"— {short(ability_text(CATALOG, shop, tr))}", shop.id
        if t == K.COMPANION:
            comp = CATALOG.companions[v]
            return f"— {short(companion_text(CATALOG, comp, tr))}", comp.id
        if t == K.SHOP:
            return "", SHOPS[v].id
    return "", None


def describe(s: GameState, action: Action, tr: Translate = same) -> Choice:
    """An action of the seat to act with its facts, from what that seat may see; ``tr``
    (``core/tr.py``) says the words and facts in the reader's language, never ``text``."""
    p = s.stack[-1][1] if s.stack else -1
    facts, card, promise = _facts(s, p, action, tr)
    return Choice(text(s, action), facts, card,
                  action_text(action, CATALOG, s.options.player_names(), tr), promise)


def choices(s: GameState, tr: Translate = same) -> list[Choice]:
    """``legal_actions(s)`` described, in the same order."""
    return [describe(s, a, tr) for a in legal_actions(s)]
