// The card catalog (GET /api/cards) and how each kind of card and icon is drawn.
// Every icon carries a letter or symbol as well as a colour, so nothing depends on colour alone.

import { api, h } from "./dom.js";

export const GOODS = ["BREAD", "MEAT", "IRON", "POTION", "CRYSTAL", "PLANT"];
export const GOOD_NAMES = {
  BREAD: "Bread", MEAT: "Meat", IRON: "Iron", POTION: "Potion", CRYSTAL: "Crystal",
  PLANT: "Plant", COIN: "Coin", RAINBOW: "any Good", DRAGON: "Artisan Dragon", ANY: "any dragon",
};
const ICON_TEXT = {
  BREAD: "Br", MEAT: "Me", IRON: "Ir", POTION: "Po", CRYSTAL: "Cr", PLANT: "Pl",
  COIN: "¢", RAINBOW: "★", ANY: "★", DRAGON: "Dr",
};

// Published fire-up abilities: every Artisan Dragon of one type shares one (rules, Artisan
// Dragon Abilities). The catalog does not carry them, so they are written out here.
export const FIRE_UP = {
  BREAD: "Draw 1 Artisan Dragon: any face-up dragon in the Park, or the top of the deck.",
  MEAT: "Place an Artisan Dragon from your hand on any empty matching slot in Town and gain "
    + "the slot's reward.",
  IRON: "Gain 2 of one Good produced by this Shop or by an Artisan Dragon here.",
  POTION: "Swap this dragon with another Artisan Dragon in Town, then fire up the dragon "
    + "that arrived here.",
  CRYSTAL: "Gain any 3 different Goods.",
  PLANT: "Gift 1 Good to another player, then gain 2 Reputation.",
};

export const SOURCE_LABELS = {
  slots: "Dragon slots", enchantments: "Enchantments", sun_dragons: "Sun Dragons",
  moon_dragons: "Moon Dragons", gifts: "Gifts", abilities: "Abilities", coins: "Leftover Coins",
  companions: "Companions", achievements: "Achievements",
};

// Seat markers: a distinct shape per seat, so tokens are told apart without colour.
export const SEAT_MARKS = ["●", "▲", "■", "◆", "✚"];

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
export function icon(key, extra = "") {
  const k = String(key).toUpperCase();
  const name = GOOD_NAMES[k] || k;
  return h("span", { class: `icon icon-${k} ${extra}`, title: name, "aria-label": name,
    role: "img" }, ICON_TEXT[k] || k.slice(0, 2));
}

/** A reward ({rep, coins, artisan, fancy, good_choice}) as icons with words for screen readers. */
export function rewardIcons(reward) {
  const out = [];
  if (!reward) return out;
  if (reward.rep) out.push(h("span", { class: "rw rw-rep", title: `${reward.rep} Reputation` },
    `♥${reward.rep}`));
  if (reward.coins) out.push(h("span", { class: "rw rw-coin", title: `${reward.coins} Coin(s)` },
    `¢${reward.coins}`));
  if (reward.artisan) out.push(h("span", { class: "rw rw-art",
    title: `draw ${reward.artisan} Artisan Dragon(s)` }, `+${reward.artisan}Dr`));
  if (reward.fancy) out.push(h("span", { class: "rw rw-fancy",
    title: `draw ${reward.fancy} Fancy Dragon(s)` }, `+${reward.fancy}F`));
  if (reward.good_choice) out.push(h("span", { class: "rw rw-any",
    title: `${reward.good_choice} Good(s) of your choice` }, `★${reward.good_choice}`));
  return out;
}

export function rewardText(reward) {
  if (!reward) return "nothing";
  const parts = [];
  if (reward.rep) parts.push(`${reward.rep} Reputation`);
  if (reward.coins) parts.push(`${reward.coins} Coin${reward.coins > 1 ? "s" : ""}`);
  if (reward.artisan) parts.push(`draw ${reward.artisan} Artisan Dragon${reward.artisan > 1 ? "s" : ""}`);
  if (reward.fancy) parts.push(`draw ${reward.fancy} Fancy Dragon${reward.fancy > 1 ? "s" : ""}`);
  if (reward.good_choice) parts.push(`${reward.good_choice} Good(s) of your choice`);
  return parts.length ? parts.join(" + ") : "nothing";
}

export function costText(cost) {
  return Object.entries(cost || {}).filter(([, n]) => n)
    .map(([g, n]) => `${n} ${GOOD_NAMES[g] || g}`).join(", ") || "nothing";
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
      lines: [`Artisan Dragon · ${GOOD_NAMES[type] || type}`, `Fire up: ${FIRE_UP[type] || "?"}`,
        `Gathering at its Shop gives 1 ${GOOD_NAMES[type] || type}.`] };
  }
  if (kind === "shop") {
    const card = cat.shops[id];
    if (!card) return { title: "Face-down Shop", lines: ["It is flipped at the end of the turn."] };
    const lines = [`Shop · gives ${GOOD_NAMES[card.icon] || card.icon} when you Gather here.`];
    (card.slots || []).forEach((slot, i) => {
      lines.push(`Slot ${i + 1}: takes ${acceptsOf(slot).map((a) => GOOD_NAMES[a] || a).join(" or ")}`
        + ` dragons; reward: ${rewardText(slot.reward)}.`);
    });
    lines.push(card.ability_name ? `Ability (Gather only) — ${card.ability_name}: ${card.ability_text}`
      : "No Shop ability (starter Shop).");
    if (card.icon === "DRAGON" || card.icon === "COIN") lines.push("Cannot be Enchanted.");
    return { title: card.name, lines };
  }
  if (kind === "ench") {
    const card = cat.enchantments[id];
    if (!card) return { title: id, lines: [] };
    const lines = [`Enchantment · cast on a ${GOOD_NAMES[card.icon] || card.icon} or rainbow Shop.`];
    if (card.set_cost) {
      lines.push(`Cost per set: ${costText(setCost(card))}; Reputation for 1, 2, … sets: `
        + `${(card.rep_by_sets || []).join(", ")}.`);
    } else lines.push(`Cost: ${costText(card.cost)}.`);
    lines.push(card.no_coins ? "Coins may NOT be spent on it." : "Coins may stand in for any Good.");
    lines.push(`Reward: ${rewardText(card.reward)}.`);
    return { title: card.name, lines };
  }
  if (kind === "fancy") {
    const card = cat.fancies[id];
    if (!card) return { title: id, lines: [] };
    return { title: card.name, lines: [
      card.sun ? "☀ Sun Dragon: reveal it on your turn once its goal is met."
        : "☾ Moon Dragon: scored at the end of the game if its goal is met.", card.text] };
  }
  if (kind === "companion") {
    const card = cat.companions[id];
    return { title: card ? card.name : id, lines: ["Companion", card ? card.text : ""] };
  }
  if (kind === "supply" || kind === "good") {
    return { title: GOOD_NAMES[id] || id, lines: [id === "COIN"
      ? "Coins stand in for any Good when paying or gifting; 1 Reputation each at the end."
      : "A Good. You may keep at most 7 of each."] };
  }
  return { title: id, lines: [] };
}

/** A small artisan-dragon card: type icon + name. */
export function artisanCard(cat, id, extra = {}) {
  const card = cat.artisans[id];
  const type = cat.artisanType(id);
  return h("div", { class: `card artisan type-${type}`, ...extra },
    icon(type), h("span", { class: "name" }, card ? card.name : id));
}

/** An Enchantment card: icon, name, cost and reward. */
export function enchCard(cat, id, extra = {}) {
  const card = cat.enchantments[id] || { name: id, icon: "RAINBOW" };
  const body = [];
  if (card.set_cost) {
    body.push(h("div", { class: "ench-cost" }, "per set: ", costIcons(setCost(card))));
    body.push(h("div", { class: "ench-reward" }, "♥ by sets ", (card.rep_by_sets || []).join("/"),
      " ", rewardIcons(card.reward)));
  } else {
    body.push(h("div", { class: "ench-cost" }, costIcons(card.cost)));
    body.push(h("div", { class: "ench-reward" }, rewardIcons(card.reward)));
  }
  return h("div", { class: "card ench", ...extra },
    h("div", { class: "card-head" }, icon(card.icon), h("span", { class: "name" }, card.name),
      card.no_coins ? h("span", { class: "nocoin", title: "Coins may not be spent" }, "⊘¢") : null),
    body);
}

/** A Fancy Dragon: sun or moon, name and its goal text. */
export function fancyCard(cat, id, extra = {}, scored = false, now = undefined) {
  const card = cat.fancies[id] || { name: id, text: "", sun: false };
  // `now`: what the goal would pay at this moment (your own unscored dragons only).
  const met = now === undefined ? null
    : h("span", { class: `tag ${now > 0 ? "met" : "unmet"}` },
      now > 0 ? `✓ met: ${now} Rep now` : "✗ not met yet");
  return h("div", { class: `card fancy ${card.sun ? "sun" : "moon"}${scored ? " scored" : ""}`, ...extra },
    h("div", { class: "card-head" },
      h("span", { class: "fancy-kind", title: card.sun ? "Sun Dragon" : "Moon Dragon" },
        card.sun ? "☀" : "☾"),
      h("span", { class: "name" }, card.name), scored ? h("span", { class: "tag" }, "scored") : null,
      met),
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
