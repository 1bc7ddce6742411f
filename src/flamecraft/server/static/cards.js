// The card catalog (GET /api/cards) and how each kind of card and icon is drawn.
// Every icon carries a letter or symbol as well as a colour, so nothing depends on colour alone.

import { api, h } from "./dom.js";
import { N_, t } from "./i18n.js";

export const GOODS = ["BREAD", "MEAT", "IRON", "POTION", "CRYSTAL", "PLANT"];
// (in English: each shown through goodName(), in the page's language)
const GOOD_WORDS = {
  BREAD: N_("Bread"), MEAT: N_("Meat"), IRON: N_("Iron"), POTION: N_("Potion"),
  CRYSTAL: N_("Crystal"), PLANT: N_("Plant"), COIN: N_("Coin"), RAINBOW: N_("any Good"),
  DRAGON: N_("Artisan Dragon"), ANY: N_("any dragon"),
};

/** A Good's (or Coin's, or a slot icon's) name in the page's language. */
export function goodName(key) {
  const k = String(key).toUpperCase();
  return GOOD_WORDS[k] ? t(GOOD_WORDS[k]) : k;
}
// (the letters are abbreviations of the names: translated, as the names are)
const ICON_TEXT = {
  BREAD: N_("Br"), MEAT: N_("Me"), IRON: N_("Ir"), POTION: N_("Po"), CRYSTAL: N_("Cr"),
  PLANT: N_("Pl"), COIN: "¢", RAINBOW: "★", ANY: "★", DRAGON: N_("Dr"),
};

export const SOURCE_LABELS = {
  slots: N_("Dragon slots"), enchantments: N_("Enchantments"), sun_dragons: N_("Sun Dragons"),
  moon_dragons: N_("Moon Dragons"), gifts: N_("Gifts"), abilities: N_("Abilities"),
  coins: N_("Leftover Coins"), companions: N_("Companions"), achievements: N_("Achievements"),
};

// Seat markers: a distinct shape per seat, so tokens are told apart without colour.
export const SEAT_MARKS = ["●", "▲", "■", "◆", "✚"];

/** A seat's token: a dragon's head (art/token.svg) in the seat's colour, with the seat's
 * shape on it (colour is never the only cue); `label` names it for screen readers. */
export function seatToken(seat, label = "", extra = {}) {
  return h("span", { class: `seat-token seat-${seat}`, role: label ? "img" : undefined,
    "aria-label": label || undefined, "aria-hidden": label ? undefined : "true",
    title: label || undefined, ...extra },
  h("span", { class: "seat-shape" }, SEAT_MARKS[seat] || ""));
}

/** The catalog, indexed by id for every card kind. */
export class Catalog {
  constructor(data) {
    this.raw = data;
    const index = (list) => Object.fromEntries((list || []).map((c) => [c.id, c]));
    this.shops = index(data.shops);
    this.artisans = index(data.artisans);
    this.enchantments = index(data.enchantments);
    this.fancies = index(data.fancies);
    this.companions = index(data.companions);
    this.achievements = index(data.achievements);
  }

  static async load() {
    return new Catalog(await api("GET", "/api/cards"));
  }

  artisanType(id) {
    const card = this.artisans[id];
    if (!card) return "ANY";
    return typeof card.type === "number" ? GOODS[card.type] : String(card.type).toUpperCase();
  }
}

/** A Good / Coin / Rainbow / Dragon icon: letter or symbol, colour, and a spoken name. */
// The Goods and the Coin drawn as pictures (static/art/*.svg, the project's own art: see
// art/README.md); the style sheet paints them, the element carries the name.
const ART = new Set(["BREAD", "MEAT", "IRON", "POTION", "CRYSTAL", "PLANT", "COIN", "RAINBOW",
  "ANY", "DRAGON"]);

export function icon(key, extra = "") {
  const k = String(key).toUpperCase();
  const name = goodName(k);
  if (ART.has(k)) {
    return h("span", { class: `icon icon-art icon-${k} ${extra}`, title: name,
      "aria-label": name, role: "img" });
  }
  return h("span", { class: `icon icon-${k} ${extra}`, title: name, "aria-label": name,
    role: "img" }, ICON_TEXT[k] ? t(ICON_TEXT[k]) : k.slice(0, 2));
}

// The Goods' short forms in the server's texts (core/describe.py's GOOD_ICONS, in English
// and in Japanese), drawn as the Goods' icons wherever the page shows such a text.
const TOKENS = {
  "[Br]": "BREAD", "[Me]": "MEAT", "[Ir]": "IRON", "[Po]": "POTION", "[Cr]": "CRYSTAL",
  "[Pl]": "PLANT", "[パ]": "BREAD", "[肉]": "MEAT", "[鉄]": "IRON", "[ポ]": "POTION",
  "[ク]": "CRYSTAL", "[植]": "PLANT",
};
const TOKEN_RE = /\[(?:Br|Me|Ir|Po|Cr|Pl|パ|肉|鉄|ポ|ク|植)\]/g;

/** A text with its Good tokens ("[Po][Po]") as icons: an array of strings and icon spans
 * (each named by its Good for screen readers). */
export function withIcons(text) {
  const s = String(text);
  const out = [];
  let at = 0;
  for (const m of s.matchAll(TOKEN_RE)) {
    if (m.index > at) out.push(s.slice(at, m.index));
    out.push(icon(TOKENS[m[0]], "in-text"));
    at = m.index + m[0].length;
  }
  if (at < s.length) out.push(s.slice(at));
  return out;
}

/** A reward ({rep, coins, artisan, fancy, good_choice}) as icons with words for screen readers. */
export function rewardIcons(reward) {
  const out = [];
  if (!reward) return out;
  if (reward.rep) out.push(h("span", { class: "rw rw-rep",
    title: t("{n} Reputation", { n: reward.rep }) }, `♥${reward.rep}`));
  if (reward.coins) out.push(h("span", { class: "rw rw-coin",
    title: t("{n} Coin(s)", { n: reward.coins }) }, `¢${reward.coins}`));
  if (reward.artisan) out.push(h("span", { class: "rw rw-art",
    title: t("draw {n} Artisan Dragon(s)", { n: reward.artisan }) },
  "+" + reward.artisan + t("Dr")));
  if (reward.fancy) out.push(h("span", { class: "rw rw-fancy",
    title: t("draw {n} Fancy Dragon(s)", { n: reward.fancy }) },
  "+" + reward.fancy + t("F")));
  if (reward.good_choice) out.push(h("span", { class: "rw rw-any",
    title: t("{n} Good(s) of your choice", { n: reward.good_choice }) },
  `★${reward.good_choice}`));
  return out;
}

export function rewardText(reward) {
  if (!reward) return t("nothing");
  const parts = [];
  if (reward.rep) parts.push(t("{n} Reputation", { n: reward.rep }));
  if (reward.coins) parts.push(reward.coins === 1 ? t("{n} Coin", { n: 1 })
    : t("{n} Coins", { n: reward.coins }));
  if (reward.artisan) {
    parts.push(reward.artisan === 1 ? t("draw {n} Artisan Dragon", { n: 1 })
      : t("draw {n} Artisan Dragons", { n: reward.artisan }));
  }
  if (reward.fancy) {
    parts.push(reward.fancy === 1 ? t("draw {n} Fancy Dragon", { n: 1 })
      : t("draw {n} Fancy Dragons", { n: reward.fancy }));
  }
  if (reward.good_choice) parts.push(t("{n} Good(s) of your choice", { n: reward.good_choice }));
  return parts.length ? parts.join(" + ") : t("nothing");
}

export function costText(cost) {
  return Object.entries(cost || {}).filter(([, n]) => n)
    .map(([g, n]) => t("{n} {good}", { n, good: goodName(g) })).join(t(", ")) || t("nothing");
}

function costIcons(cost) {
  return Object.entries(cost || {}).filter(([, n]) => n)
    .map(([g, n]) => h("span", { class: "cost" }, String(n), icon(g)));
}

// A variable Enchantment's cost for one set: "set_cost" is true (and "cost" is one set), or
// the set itself.
function setCost(card) {
  return typeof card.set_cost === "object" ? card.set_cost : card.cost;
}

function acceptsOf(slot) {
  const acc = slot.accepts || [];
  return acc.includes("ANY") ? ["ANY"] : acc;
}

/** Title + lines describing a card for the details panel. */
export function details(cat, kind, id) {
  if (kind === "artisan") {
    const card = cat.artisans[id];
    const type = cat.artisanType(id);
    return { title: card ? card.name : id,
      lines: [t("Artisan Dragon · {type}", { type: goodName(type) }),
        t("Fire up: {ability}", { ability: (card && card.fire_up) || "?" }),
        t("Gathering at its Shop gives 1 {good}.", { good: goodName(type) })] };
  }
  if (kind === "shop") {
    const card = cat.shops[id];
    if (!card) {
      return { title: t("Face-down Shop"), lines: [t("It is flipped at the end of the turn.")] };
    }
    const lines = [t("Shop · gives {good} when you Gather here.", { good: goodName(card.icon) })];
    const or = t(" or "); // (a t() inside another's arguments is not extracted)
    (card.slots || []).forEach((slot, i) => {
      lines.push(t("Slot {slot}: takes {types} dragons; reward: {reward}.", { slot: i + 1,
        types: acceptsOf(slot).map(goodName).join(or), reward: rewardText(slot.reward) }));
    });
    lines.push(card.ability_name ? t("Ability (Gather only) — {name}: {text}",
      { name: card.ability_name, text: card.ability_text })
      : t("No Shop ability (starter Shop)."));
    if (card.icon === "DRAGON" || card.icon === "COIN") lines.push(t("Cannot be Enchanted."));
    return { title: card.name, lines };
  }
  if (kind === "ench") {
    const card = cat.enchantments[id];
    if (!card) return { title: id, lines: [] };
    const lines = [t("Enchantment · cast on a {good} or rainbow Shop.",
      { good: goodName(card.icon) })];
    if (card.set_cost) {
      lines.push(t("Cost per set: {cost}; Reputation for 1, 2, … sets: {reps}.",
        { cost: costText(setCost(card)), reps: (card.rep_by_sets || []).join(", ") }));
    } else lines.push(t("Cost: {cost}.", { cost: costText(card.cost) }));
    lines.push(card.no_coins ? t("Coins may NOT be spent on it.")
      : t("Coins may stand in for any Good."));
    lines.push(t("Reward: {reward}.", { reward: rewardText(card.reward) }));
    return { title: card.name, lines };
  }
  if (kind === "fancy") {
    const card = cat.fancies[id];
    if (!card) return { title: id, lines: [] };
    return { title: card.name, lines: [
      card.sun ? t("☀ Sun Dragon: reveal it on your turn once its goal is met.")
        : t("☾ Moon Dragon: scored at the end of the game if its goal is met."), card.text] };
  }
  if (kind === "companion") {
    const card = cat.companions[id];
    return { title: card ? card.name : id, lines: [t("Companion"), card ? card.text : ""] };
  }
  if (kind === "supply" || kind === "good") {
    return { title: goodName(id), lines: [id === "COIN"
      ? t("Coins stand in for any Good when paying or gifting; 1 Reputation each at the end.")
      : t("A Good. You may keep at most 7 of each.")] };
  }
  return { title: id, lines: [] };
}

/** An Artisan Dragon's figure (art/dragon-*.svg: a silhouette per type, as well as its
 * colour), named by its type for screen readers; the type's icon where there is no figure. */
export function dragonIcon(type) {
  if (!GOODS.includes(type)) return icon(type);
  const name = t("{good} dragon", { good: goodName(type) });
  return h("span", { class: `icon icon-art dragon dragon-${type}`, title: name,
    "aria-label": name, role: "img" });
}

/** A small artisan-dragon card: the type's dragon figure + name. Carries data-anim (the
 * same on the hand, the Park and a slot), so the motion can follow it from one to another. */
export function artisanCard(cat, id, extra = {}) {
  const card = cat.artisans[id];
  const type = cat.artisanType(id);
  const dataset = { anim: `artisan:${id}`, ...(extra.dataset || {}) };
  return h("div", { class: `card artisan type-${type}`, ...extra, dataset },
    dragonIcon(type), h("span", { class: "name" }, card ? card.name : id));
}

/** An Enchantment card: icon, name, cost and reward. */
export function enchCard(cat, id, extra = {}) {
  const card = cat.enchantments[id] || { name: id, icon: "RAINBOW" };
  const body = [];
  if (card.set_cost) {
    body.push(h("div", { class: "ench-cost" }, t("per set: "), costIcons(setCost(card))));
    body.push(h("div", { class: "ench-reward" }, t("♥ by sets "), (card.rep_by_sets || []).join("/"),
      " ", rewardIcons(card.reward)));
  } else {
    body.push(h("div", { class: "ench-cost" }, costIcons(card.cost)));
    body.push(h("div", { class: "ench-reward" }, rewardIcons(card.reward)));
  }
  const dataset = { anim: `ench:${id}`, ...(extra.dataset || {}) };
  return h("div", { class: "card ench", ...extra, dataset },
    h("div", { class: "card-head" }, icon(card.icon), h("span", { class: "name" }, card.name),
      card.no_coins ? h("span", { class: "nocoin", title: t("Coins may not be spent") }, "⊘¢") : null),
    body);
}

/** A Fancy Dragon: sun or moon, name and its goal text. */
export function fancyCard(cat, id, extra = {}, scored = false, now = undefined, goal = "") {
  const card = cat.fancies[id] || { name: id, text: "", sun: false };
  // `now`: what the goal would pay at this moment; `goal`: the goal with your progress and
  // its reward, "— Moon: 6/7 Shops visited → 5 Rep" (your own unscored dragons only).
  const met = now === undefined ? null
    : h("span", { class: `tag ${now > 0 ? "met" : "unmet"}` },
      now > 0 ? t("✓ met: {n} Rep now", { n: now }) : t("✗ not met yet"));
  return h("div", { class: `card fancy ${card.sun ? "sun" : "moon"}${scored ? " scored" : ""}`, ...extra },
    h("div", { class: "card-head" },
      h("span", { class: `fancy-kind fancy-art ${card.sun ? "sun" : "moon"}`, role: "img",
        title: card.sun ? t("Sun Dragon") : t("Moon Dragon"),
        "aria-label": card.sun ? t("Sun Dragon") : t("Moon Dragon") }),
      h("span", { class: "name" }, card.name), scored ? h("span", { class: "tag" }, t("scored")) : null,
      met),
    goal ? h("div", { class: "fancy-goal" }, goal) : null,
    h("div", { class: "fancy-text" }, card.text));
}

export function companionCard(cat, id, extra = {}) {
  const card = cat.companions[id] || { name: id, text: "" };
  return h("div", { class: "card companion", ...extra },
    h("div", { class: "card-head" }, h("span", { class: "fancy-kind" }, "✦"),
      h("span", { class: "name" }, card.name)),
    h("div", { class: "fancy-text" }, card.text));
}

export { acceptsOf };
