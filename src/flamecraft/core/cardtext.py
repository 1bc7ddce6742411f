"""Card texts in words, generated from the card data in any language.

The effect primitives of a card (``data/*.toml``) are worded from templates, one per primitive
and parameter shape (``op_words``), so that a new card needs no hand-written text in any
language: its numbers, Goods and rewards fill the templates. English reads the templates as
written (``docs/cards.md`` is generated with them by ``carddocs.py``); another language reads
their translations through ``tr`` (``core/tr.py``).

A player reading English sees the card as printed (``ShopCard.ability_text``,
``FancyCard.text``…); in another language the printed text does not exist, so ``card_text``
and its siblings generate it: ``printed(tr)`` tells which.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from .cards import (
    ANY_SLOT,
    ICON_COIN,
    ICON_DRAGON,
    ICON_RAINBOW,
    Achievement,
    Catalog,
    CompanionCard,
    EnchantmentCard,
    FancyCard,
    Goal,
    Op,
    Reward,
    ShopCard,
)
from .goods import GOOD_NAMES, NUM_GOODS
from .tr import N_, Translate, same

# The name of the catalogue's language: "English" is the msgid, every catalogue translates it
# to its own language's name (日本語). ``printed`` reads it to know whether the printed English
# card texts are the reader's.
LANGUAGE_NAME: Final = N_("English")


def printed(tr: Translate) -> bool:
    """Whether ``tr`` reads English, so that the cards' printed texts are the reader's."""
    return tr(LANGUAGE_NAME) == LANGUAGE_NAME


def good_name(good: int, tr: Translate = same) -> str:
    return tr(GOOD_NAMES[good])


def goods_words(counts: Sequence[int], tr: Translate = same) -> str:
    """``3 Meat, 2 Crystal and 1 Plant`` (or "nothing")."""
    parts = [tr("{n} {good}").format(n=n, good=good_name(g, tr))
             for g, n in enumerate(counts) if n]
    if len(parts) > 1:
        return tr("{items} and {last}").format(items=tr(", ").join(parts[:-1]), last=parts[-1])
    return parts[0] if parts else tr("nothing")


def reward_words(reward: Reward, tr: Translate = same) -> str:
    """A reward in words: ``3 Reputation + 1 Coin`` (or "nothing")."""
    parts = []
    if reward.rep:
        parts.append(tr("{n} Reputation").format(n=reward.rep))
    if reward.coins:
        n = reward.coins
        parts.append((tr("{n} Coins") if n > 1 else tr("{n} Coin")).format(n=n))
    if reward.good_choice:
        n = reward.good_choice
        parts.append((tr("{n} Goods of your choice") if n > 1 else
                      tr("{n} Good of your choice")).format(n=n))
    if reward.artisan:
        n = reward.artisan
        parts.append(tr("an Artisan Dragon") if n == 1 else
                     tr("{n} Artisan Dragons").format(n=n))
    if reward.fancy:
        n = reward.fancy
        parts.append(tr("a Fancy Dragon") if n == 1 else tr("{n} Fancy Dragons").format(n=n))
    return tr(" + ").join(parts) if parts else tr("nothing")


# --- effect primitives in words ------------------------------------------------------------------

_WHERE: Final = {
    "hand": N_("in your hand"),
    "park": N_("in the Park"),
    "here": N_("at this Shop"),
    "other_shop": N_("at another Shop in Town (resolved as if you were visiting that Shop)"),
}
_CONDITIONS: Final = {"lowest_rep": N_("no other player has less Reputation than you")}


def _gain_words(params: Any, tr: Translate) -> str:
    parts = []
    goods = params.get("goods")
    if goods and any(goods):
        parts.append(goods_words(goods, tr))
    if params.get("good_choice"):
        n = params["good_choice"]
        parts.append((tr("{n} Goods of your choice") if n > 1 else
                      tr("{n} Good of your choice")).format(n=n))
    if params.get("coins"):
        n = params["coins"]
        parts.append((tr("{n} Coins") if n > 1 else tr("{n} Coin")).format(n=n))
    rep = params.get("rep", 0)
    per = params.get("rep_per_enchantment_here", 0)
    if rep or per:
        if rep and per:
            text = tr("{n} Reputation plus {per} Reputation per Enchantment at this Shop")
        elif per:
            text = tr("{per} Reputation per Enchantment at this Shop")
        else:
            text = tr("{n} Reputation")
        parts.append(text.format(n=rep, per=per))
    words = tr("gain {things}").format(things=tr(", ").join(parts)) if parts else ""
    draws = []
    if params.get("artisan"):
        n = params["artisan"]
        draws.append((tr("draw {n} Artisan Dragons (from the Park or the top of the deck)")
                      if n > 1 else
                      tr("draw {n} Artisan Dragon (from the Park or the top of the deck)")
                      ).format(n=n))
    if params.get("fancy"):
        n = params["fancy"]
        draws.append((tr("draw {n} Fancy Dragons") if n > 1 else
                      tr("draw {n} Fancy Dragon")).format(n=n))
    return tr(", and ").join([w for w in (words, *draws) if w]) or tr("gain nothing")


def _sub(catalog: Catalog, params: Any, name: str, tr: Translate) -> str:
    list_id = params.get(name, -1)
    return ops_words(catalog, list_id, tr) if list_id >= 0 else ""


def _trade_words(p: Any, then: str, tr: Translate) -> str:
    if "give" in p:
        what = tr("return {goods} (only if you have it all)").format(
            goods=goods_words(p["give"], tr))
    elif "give_any" in p:
        what = tr("return {n} Goods of any types, one at a time").format(n=p["give_any"])
    elif "give_same" in p:
        what = tr("return {n} Goods of one type").format(n=p["give_same"])
    else:
        n = p.get("give_coins", 0)
        what = (tr("return {n} Coins (only if you have them)") if n != 1 else
                tr("return {n} Coin (only if you have it)")).format(n=n)
    return tr("{step}; then {then}").format(step=what, then=then) if then else what


def _return_up_to_words(p: Any, tr: Translate) -> str:
    most = p.get("max", 1)
    text = (tr("you may return up to {n} Coins, one at a time")
            if p.get("item", "goods") == "coins" else
            tr("you may return up to {n} Goods, one at a time")).format(n=most)
    if "per" in p:
        text = tr("{text}; for each, gain {reward}").format(
            text=text, reward=reward_words(p["per"], tr))
    if "bonus" in p:
        text = tr("{text}; if you returned {n}, gain {reward}").format(
            text=text, n=p.get("bonus_at", 0), reward=reward_words(p["bonus"], tr))
    return text


def _fire_up_words(p: Any, otherwise: str, tr: Translate) -> str:
    excluded = p.get("exclude", ())
    where = tr(_WHERE[p.get("where", "here")])
    if excluded:
        kinds = tr(" or ").join(good_name(g, tr) for g in excluded)
        text = tr("you may fire up 1 Artisan Dragon {where} (not a {kinds} Dragon) that has not "
                  "been fired up this turn").format(where=where, kinds=kinds)
    else:
        text = tr("you may fire up 1 Artisan Dragon {where} that has not been fired up this "
                  "turn").format(where=where)
    if otherwise:
        return tr("{text}; if there is none: {otherwise}").format(text=text, otherwise=otherwise)
    return text


def _gift_words(p: Any, then: str, tr: Translate) -> str:
    most = p.get("max", 1)
    optional = bool(p.get("optional"))
    if most > 1:
        text = (tr("you may gift up to {n} Goods (or Coins) to other players, one at a time")
                if optional else
                tr("gift up to {n} Goods (or Coins) to other players, one at a time")
                ).format(n=most)
    else:
        text = (tr("you may gift 1 Good (or Coin) to another player") if optional else
                tr("gift 1 Good (or Coin) to another player"))
    if "per" in p:
        reward = reward_words(p["per"], tr)
        text = (tr("{text}; for each, gain {reward}") if most > 1 else
                tr("{text}; if you do, gain {reward}")).format(text=text, reward=reward)
    if then:
        return tr("{text}; if you gave any: {then}").format(text=text, then=then)
    return text


def _place_words(p: Any, tr: Translate) -> str:
    from_park = p.get("source", "hand") != "hand"
    here = p.get("scope", "anywhere") == "here"
    source = tr("the Park") if from_park else tr("your hand")
    scope = tr("at this Shop") if here else tr("anywhere in Town")
    cost = p.get("cost")
    if cost:
        msgid = (N_("you may return {goods} to place 1 Artisan Dragon from {source} on an empty "
                    "matching slot {scope}, gaining the slot's reward") if p.get("optional") else
                 N_("return {goods} to place 1 Artisan Dragon from {source} on an empty "
                    "matching slot {scope}, gaining the slot's reward"))
    else:
        msgid = (N_("you may place 1 Artisan Dragon from {source} on an empty matching slot "
                    "{scope}, gaining the slot's reward") if p.get("optional") else
                 N_("place 1 Artisan Dragon from {source} on an empty matching slot {scope}, "
                    "gaining the slot's reward"))
    return tr(msgid).format(goods=goods_words(cost, tr) if cost else "", source=source,
                            scope=scope)


def _with_outcomes(text: str, then: str, otherwise: str, tr: Translate) -> str:
    if then:
        text = tr("{text}; if you do: {then}").format(text=text, then=then)
    if otherwise:
        text = tr("{text}; if not: {otherwise}").format(text=text, otherwise=otherwise)
    return text


def op_words(catalog: Catalog, op: Op, tr: Translate = same) -> str:
    """One primitive in plain words, as ``effects.py`` runs it."""
    p = op.params
    then = _sub(catalog, p, "then", tr)
    otherwise = _sub(catalog, p, "otherwise", tr)
    name = op.name
    if name == "gain":
        return _gain_words(p, tr)
    if name == "gain_same":
        return tr("gain {n} Goods of one type of your choice").format(n=p.get("n", 1))
    if name == "gain_distinct":
        return tr("gain {n} different Goods of your choice").format(n=p.get("n", 3))
    if name == "gain_from_here":
        return tr("gain {n} of one Good produced where the dragon is (the Shop's icon, any Good "
                  "at a rainbow Shop, or any Artisan Dragon there)").format(n=p.get("n", 2))
    if name == "trade":
        return _trade_words(p, then, tr)
    if name == "return_up_to":
        return _return_up_to_words(p, tr)
    if name == "reserve":
        if p.get("exchange"):
            return tr("if you have no reserved Enchantment, you may reserve 1 from the face-up "
                      "row; if you have one, you may exchange it with 1 in the row (yours takes "
                      "its place)")
        return tr("if you have no reserved Enchantment, you may reserve 1 from the face-up row")
    if name == "fire_up":
        return _fire_up_words(p, otherwise, tr)
    if name == "fancy_draw":
        n = p.get("n", 1)
        keep = p.get("keep", n)
        if keep >= n:
            return (tr("draw {n} Fancy Dragons") if n > 1 else
                    tr("draw {n} Fancy Dragon")).format(n=n)
        return tr("draw {n} Fancy Dragons, keep {keep}, and put the others on the bottom of the "
                  "Fancy deck").format(n=n, keep=keep)
    if name == "fancy_return":
        return _with_outcomes(tr("you may put 1 of your unscored Fancy Dragons on the bottom of "
                                 "the Fancy deck"), then, otherwise, tr)
    if name == "artisan_look":
        return tr("look at the top {n} cards of the Artisan deck, put 1 in your hand and the "
                  "others on the bottom of the deck").format(n=p.get("n", 3))
    if name == "score_moon_now":
        return _with_outcomes(tr("you may score 1 of your unscored Moon Dragons whose goal is "
                                 "met now (not an end-only one)"), then, otherwise, tr)
    if name == "gift":
        return _gift_words(p, then, tr)
    if name == "gift_each":
        text = tr("you may gift exactly 1 Good (or Coin) to each other player")
        if p.get("per_gift_rep"):
            text = tr("{text}; if you do, gain {n} Reputation per gift").format(
                text=text, n=p["per_gift_rep"])
        return tr("{text}, then {then}").format(text=text, then=then) if then else text
    if name == "gift_artisan":
        return _with_outcomes(tr("you may gift 1 Artisan Dragon from your hand to another "
                                 "player"), then, "", tr)
    if name == "place":
        return _place_words(p, tr)
    if name == "swap_two":
        return tr("you may swap 2 Artisan Dragons in Town (slot icons ignored, no rewards, not a "
                  "placement)")
    if name == "swap_and_fire":
        return tr("swap this dragon with another Artisan Dragon in Town (slot icons ignored, no "
                  "rewards), then fire up the dragon that arrived, if it has not been fired up "
                  "this turn")
    if name == "park_cycle":
        return tr("you may put up to {n} Park dragons on the bottom of the Artisan deck, one at "
                  "a time; if you do, refill the Park at once").format(n=p.get("max", 2))
    if name == "if":
        text = tr("if {condition}: {then}").format(condition=tr(_CONDITIONS[p["cond"]]),
                                                   then=then or tr("nothing"))
        if otherwise:
            return tr("{text}; otherwise: {otherwise}").format(text=text, otherwise=otherwise)
        return text
    if name == "forage":
        return tr("choose 1 Good type; gain 1 of it for each Artisan Dragon of that type in the "
                  "Park, at most {n}").format(n=p.get("max", 3))
    if name == "exchange_good":
        return tr("return 1 Good to gain 1 Good of a different type of your choice")
    raise ValueError(f"no words for primitive {name!r}")


def ops_words(catalog: Catalog, list_id: int, tr: Translate = same) -> str:
    """An op list in plain words, its steps in order."""
    return tr("; then ").join(op_words(catalog, op, tr) for op in catalog.op_lists[list_id])


def sentence(text: str, tr: Translate) -> str:
    """Generated words as a card's sentence: capitalised and closed (``Gain 2 Bread.``)."""
    if not text:
        return text
    return tr("{text}.").format(text=text[0].upper() + text[1:])


# --- whole cards ---------------------------------------------------------------------------------

def ability_text(catalog: Catalog, shop: ShopCard, tr: Translate = same) -> str:
    """A Shop's ability in the reader's language ("" for a starter Shop, which has none)."""
    if printed(tr) or shop.ability < 0:
        return shop.ability_text
    return sentence(ops_words(catalog, shop.ability, tr), tr)


def fire_up_text(catalog: Catalog, dragon_type: int, tr: Translate = same) -> str:
    """What firing up an Artisan Dragon of a type does, generated from ``data/fire_ups.toml``
    (every language: the English printed aid is the terminal's)."""
    return sentence(ops_words(catalog, catalog.fire_ups[dragon_type], tr), tr)


def slot_words(shop: ShopCard, slot: int, tr: Translate = same) -> str:
    """A slot: the dragons it takes and its reward (``Bread or Meat → 2 Reputation``)."""
    card_slot = shop.slots[slot]
    if card_slot.accepts[0] == ANY_SLOT:
        accepts = tr("any dragon")
    else:
        accepts = tr(" or ").join(good_name(g, tr) for g in card_slot.accepts)
    return tr("{accepts} → {reward}").format(accepts=accepts,
                                             reward=reward_words(card_slot.reward, tr))


def icon_words(shop: ShopCard, tr: Translate = same) -> str:
    """What gathering at a Shop gives from its icon: a Good, any Good, dragons or Coins."""
    if shop.icon < NUM_GOODS:
        return good_name(shop.icon, tr)
    if shop.icon == ICON_RAINBOW:
        return tr("any Good")
    if shop.icon == ICON_DRAGON:
        return (tr("{n} Artisan Dragons") if shop.icon_amount > 1 else
                tr("an Artisan Dragon")).format(n=shop.icon_amount)
    assert shop.icon == ICON_COIN
    return (tr("{n} Coins") if shop.icon_amount > 1 else tr("{n} Coin")).format(
        n=shop.icon_amount)


def enchantment_text(card: EnchantmentCard, tr: Translate = same) -> str:
    """An Enchantment's cost and reward in words."""
    parts = []
    if card.printed_coins:
        n = card.printed_coins
        parts.append((tr("{n} Coins") if n > 1 else tr("{n} Coin")).format(n=n))
    if any(card.cost):
        parts.append(goods_words(card.cost, tr))
    cost = tr(" + ").join(parts)
    if card.variable:
        by_sets = tr(" / ").join(str(r) for r in card.rep_by_sets)
        text = tr("pay 1 to {sets} sets of {cost}: {rep} Reputation for 1 / … / {sets} "
                  "sets").format(sets=card.max_sets, cost=cost, rep=by_sets)
        if not card.reward.is_empty():
            text = tr("{text}, and {reward}").format(text=text,
                                                     reward=reward_words(card.reward, tr))
    else:
        text = tr("pay {cost}: gain {reward}").format(cost=cost,
                                                      reward=reward_words(card.reward, tr))
    if card.no_coins:
        text = tr("{text} (Coins may not stand in for Goods)").format(text=text)
    return sentence(text, tr)


# What a Fancy Dragon's goal or an achievement counts, by measure: the condition met with a
# number (``{n}``; ``{arg}`` the measure's argument) and the thing counted, for a reward per
# thing. Every measure of ``cards.MEASURES`` has both (the tests check it).
MEASURE_CONDITIONS: Final = {
    "max_same_type_in_a_shop": N_("some Shop in Town holds {n} Artisan Dragons of the same "
                                  "type"),
    "max_distinct_types_in_a_shop": N_("some Shop in Town holds Artisan Dragons of {n} "
                                       "different types"),
    "max_enchantments_in_a_shop": N_("some Shop in Town holds {n} Enchantments"),
    "coins_match_empty_coin_slots": N_("your Coins, at least {n}, exactly equal the empty slots "
                                       "in Town whose reward is Coins"),
    "most_of_one_good": N_("you have {n} or more of one Good (nothing is spent)"),
    "total_goods": N_("you have {n} or more Goods in total"),
    "odd_good_types": N_("you have an odd number of {n} or more Good types"),
    "good_types_with_at_least": N_("you have at least {arg} of {n} or more Good types"),
    "hand_size": N_("you have {n} or more Artisan Dragons in your hand"),
    "fancy_held": N_("you have {n} or more Fancy Dragons, scored and unscored"),
    "full_shops": N_("at least {n} Shops in Town have all their slots filled"),
    "shops_with_enchantments_at_least": N_("at least {n} Shops in Town hold {arg} or more "
                                           "Enchantments"),
    "most_dragons_of_one_type_in_town": N_("the Town holds {n} or more Artisan Dragons of one "
                                           "type"),
    "showpiece_shops": N_("{n} or more Shops in Town hold 3 Artisan Dragons and 3 "
                          "Enchantments"),
    "town_shops": N_("the Town holds {n} or more Shops"),
    "enchantments_cast": N_("you have cast {n} or more Enchantments"),
    "distinct_cast_icons": N_("the Enchantments you have cast show {n} or more different "
                              "icons"),
    "max_variable_sets": N_("you have cast a variable Enchantment paying {n} or more sets"),
    "dragons_placed": N_("you have placed {n} or more Artisan Dragons"),
    "shops_completed": N_("you have completed {n} or more Shops"),
    "gifts_given": N_("you have given {n} or more gifts"),
    "shops_visited": N_("you have visited {n} or more different Shops"),
    "sun_scored": N_("you have scored {n} or more Sun Dragons"),
    "coins": N_("you have {n} or more Coins"),
    "fancy_scored": N_("you have scored {n} or more Fancy Dragons"),
}
MEASURE_THINGS: Final = {
    "max_same_type_in_a_shop": N_("Artisan Dragon of the same type in one Shop"),
    "max_distinct_types_in_a_shop": N_("Artisan Dragon type in one Shop"),
    "max_enchantments_in_a_shop": N_("Enchantment in one Shop"),
    "coins_match_empty_coin_slots": N_("match of Coins and empty Coin slots"),
    "most_of_one_good": N_("Good of your most plentiful type"),
    "total_goods": N_("Good you have"),
    "odd_good_types": N_("Good type of which you have an odd number (0 is even)"),
    "good_types_with_at_least": N_("Good type of which you have {arg} or more"),
    "hand_size": N_("Artisan Dragon in your hand"),
    "fancy_held": N_("Fancy Dragon you have, scored and unscored, this one included"),
    "full_shops": N_("Shop in Town with all its slots filled"),
    "shops_with_enchantments_at_least": N_("Shop in Town that holds {arg} Enchantments"),
    "most_dragons_of_one_type_in_town": N_("Artisan Dragon of the type you choose in Town"),
    "showpiece_shops": N_("Shop in Town with 3 Artisan Dragons and 3 Enchantments"),
    "town_shops": N_("Shop in Town"),
    "enchantments_cast": N_("Enchantment you have cast"),
    "distinct_cast_icons": N_("different icon among the Enchantments you have cast"),
    "max_variable_sets": N_("set paid for one variable Enchantment"),
    "dragons_placed": N_("Artisan Dragon you have placed"),
    "shops_completed": N_("Shop you have completed"),
    "gifts_given": N_("gift you have given"),
    "shops_visited": N_("different Shop you have visited"),
    "sun_scored": N_("Sun Dragon you have scored"),
    "coins": N_("Coin you have"),
    "fancy_scored": N_("Fancy Dragon you have scored"),
}


def condition_words(measure: str, arg: int, n: int, tr: Translate = same) -> str:
    """A goal measure reaching ``n``: ``you have cast 3 or more Enchantments``."""
    return tr(MEASURE_CONDITIONS[measure]).format(n=n, arg=arg)


def _goal_words(goal: Goal, tr: Translate) -> str:
    if goal.at_most is not None:
        return tr("{condition}, but no more than {most}").format(
            condition=condition_words(goal.measure, goal.arg, goal.at_least or 0, tr),
            most=goal.at_most)
    return condition_words(goal.measure, goal.arg, goal.at_least or 0, tr)


def fancy_text(card: FancyCard, tr: Translate = same) -> str:
    """A Fancy Dragon's goal and what it pays, in the reader's language (printed in English)."""
    if printed(tr):
        return card.text
    goal = card.goal
    thing = tr(MEASURE_THINGS.get(goal.measure, goal.measure)).format(arg=goal.arg)
    if goal.spend is not None:
        text = tr("spend {goods}: gain {reward}").format(goods=goods_words(goal.spend, tr),
                                                         reward=reward_words(card.reward, tr))
    elif card.rep_table:
        steps = tr(", ").join(tr("{n}+: {rep} Reputation").format(n=k, rep=v)
                              for k, v in card.rep_table)
        text = tr("count each {thing}: {steps}").format(thing=thing, steps=steps)
    elif card.rep_per:
        if goal.unit > 1:
            text = tr("gain {rep} Reputation for each full group of {unit} of: {thing}").format(
                rep=card.rep_per, unit=goal.unit, thing=thing)
        elif goal.beyond:
            text = tr("gain {rep} Reputation for each {thing} beyond the first {beyond}").format(
                rep=card.rep_per, thing=thing, beyond=goal.beyond)
        else:
            text = tr("gain {rep} Reputation for each {thing}").format(rep=card.rep_per,
                                                                      thing=thing)
        if card.rep_max < 999:
            text = tr("{text}, at most {max}").format(text=text, max=card.rep_max)
    else:
        text = tr("{condition}: gain {reward}").format(condition=_goal_words(goal, tr),
                                                       reward=reward_words(card.reward, tr))
    if card.end_only:
        text = tr("at game end only: {text}").format(text=text)
    return sentence(text, tr)


def companion_limits(card: CompanionCard, tr: Translate = same) -> str:
    """How often a Companion may act (``twice per game, at most once per turn``)."""
    if card.hook == "setup_fancy":
        return tr("once, at setup")
    if card.uses_per_game:
        text = tr("{times} per game").format(times=_times(card.uses_per_game, tr))
        if card.per_turn and card.per_turn < card.uses_per_game:
            text = tr("{text}, at most {times} per turn").format(
                text=text, times=_times(card.per_turn, tr))
        return text
    if card.per_turn:
        return tr("{times} per turn").format(times=_times(card.per_turn, tr))
    return tr("every time")


def _times(n: int, tr: Translate) -> str:
    if n == 1:
        return tr("once")
    if n == 2:
        return tr("twice")
    return tr("{n} times").format(n=n)


# When each Companion acts, for a player (the engine's detail is in docs/cards.md).
HOOK_WHEN: Final = {
    "after_cast": N_("after you cast an Enchantment"),
    "after_gift": N_("after you give 1 or more gifts during your turn (visiting gifts "
                     "included)"),
    "gather_fire_all": N_("when you Gather, in step 3, instead of firing up only 1 dragon"),
    "gather_extra_place": N_("when you Gather, after step 2"),
    "free_action": N_("during your turn"),
    "setup_fancy": N_("at setup"),
}


def companion_text(catalog: Catalog, card: CompanionCard, tr: Translate = same) -> str:
    """A Companion's text in the reader's language (printed in English)."""
    if printed(tr):
        return card.text
    if card.hook == "setup_fancy":
        what = tr("you are dealt {dealt} Fancy Dragons instead of 2; keep {kept} and put the "
                  "others on the bottom of the Fancy deck").format(dealt=card.fancy_dealt,
                                                                   kept=card.fancy_kept)
    elif card.hook == "gather_fire_all":
        what = tr("you may fire up every Artisan Dragon at the Shop, each once, in any order")
    else:
        what = ops_words(catalog, card.effect, tr) if card.effect >= 0 else tr("nothing")
    return sentence(tr("{limits}, {when}: {what}").format(
        limits=companion_limits(card, tr), when=tr(HOOK_WHEN[card.hook]), what=what), tr)


def achievement_text(card: Achievement, tr: Translate = same) -> str:
    """A solo achievement's requirement in the reader's language (printed in English)."""
    if printed(tr):
        return card.text
    return sentence(condition_words(card.measure, card.arg, card.at_least, tr), tr)


def rating_title(title: str, tr: Translate = same) -> str:
    """A solo rating's title (``data/solo.toml``; extracted into the catalogue by
    ``flamecraft.display.localized.extract_titles``)."""
    return tr(title)
