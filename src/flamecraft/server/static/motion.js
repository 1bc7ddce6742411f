// Motion that explains a move: the table is redrawn whole for each new state, and this
// module makes the change visible. Before a redraw it notes where each thing that can move
// was (elements with data-anim: a dragon, a Shop, an Enchantment, a token, a count); after
// it, each thing that changed places (from the hand to a slot, the Park to the hand, the row
// to a Shop, one space of the track to another: the closest container with data-place,
// data-anim or data-key) slides from its old place to its new one (FLIP: the new layout is
// already final, only a transform plays, so nothing waits on an animation and the next
// choice is clickable at once), a new Shop flips over, a count that changed ticks, and the
// Goods a seat gained fly from its Shop to its supply.
//
// Off when the system asks for reduced motion, or when the player turns it off (the
// "Animations" switch; kept in localStorage as "flamecraft-animations": "on" / "off").

const KEY = "flamecraft-animations";
const SLIDE_MS = 420;
const FLIP_MS = 520;
const TICK_MS = 600;
const FLY_MS = 650;
const MAX_FLIGHTS = 10;

/** Whether the animations are on as saved: the player's choice, else off under reduced
 * motion. */
function animationsOn() {
  let saved = null;
  try {
    saved = localStorage.getItem(KEY);
  } catch {
    saved = null;
  }
  if (saved === "on" || saved === "off") return saved === "on";
  return !(window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches);
}

export function setAnimations(on) {
  try {
    localStorage.setItem(KEY, on ? "on" : "off");
  } catch {
    // (a page without storage keeps the choice until it is closed)
  }
  memory = on;
}
let memory = null;

/** Whether the animations are on now: the switch as last set on this page (kept even where
 * the page has no storage), else as saved. */
export function enabled() {
  return memory === null ? animationsOn() : memory;
}

/** Where each animated thing is now, and what each count says. */
export function snapshot(root) {
  const places = new Map();
  const counts = new Map();
  for (const el of root.querySelectorAll("[data-anim]")) {
    const key = el.dataset.anim;
    // the one on the board (a tile in the prompt's offer is a copy)
    if (places.has(key) || el.closest(".offer")) continue;
    places.set(key, { rect: el.getBoundingClientRect(), place: placeOf(el) });
  }
  for (const el of root.querySelectorAll("[data-count]")) {
    counts.set(el.dataset.count, el.textContent);
  }
  return { places, counts, scrollY: window.scrollY };
}

/**
 * Plays what changed between `before` (a snapshot) and the table now in `root`.
 * @param {{places: Map<string, {rect: DOMRect, place: string}>, counts: Map<string, string>,
 *   scrollY: number}} before
 * @param {{gained?: {player: number, good: string, n: number}[]}} change
 */
export function play(root, before, change = {}) {
  if (!before || !enabled() || !before.places.size) return;
  const scroll = window.scrollY - before.scrollY; // rects are on the screen: undo a scroll
  const seen = new Set();
  for (const el of root.querySelectorAll("[data-anim]")) {
    const key = el.dataset.anim;
    if (seen.has(key) || el.closest(".offer")) continue;
    seen.add(key);
    const was = before.places.get(key);
    if (!was) {
      if (key.startsWith("shop:")) flipIn(el);
      continue;
    }
    // only a change of place moves (the rest of the table reflowing around it does not)
    if (was.place === placeOf(el)) continue;
    const old = was.rect;
    const now = el.getBoundingClientRect();
    const dx = old.left - now.left;
    const dy = old.top - scroll - now.top;
    if (Math.abs(dx) + Math.abs(dy) < 3 || !now.width || !now.height) continue;
    const sx = old.width / now.width;
    const sy = old.height / now.height;
    const scale = Math.abs(sx - 1) > 0.1 || Math.abs(sy - 1) > 0.1
      ? ` scale(${sx.toFixed(3)}, ${sy.toFixed(3)})` : "";
    el.animate([
      { transform: `translate(${dx}px, ${dy}px)${scale}`, transformOrigin: "top left",
        zIndex: 30 },
      { transform: "none", transformOrigin: "top left", zIndex: 30 },
    ], { duration: SLIDE_MS, easing: "cubic-bezier(.2, .7, .3, 1)" });
  }
  for (const el of root.querySelectorAll("[data-count]")) {
    const was = before.counts.get(el.dataset.count);
    if (was !== undefined && was !== el.textContent) tick(el, Number(el.textContent) < Number(was));
  }
  let flights = 0;
  for (const gain of change.gained || []) {
    const from = root.querySelector(`[data-anim="shop:${gain.shop}"]`);
    const to = root.querySelector(`[data-count="goods:${gain.player}:${gain.good}"]`);
    if (!from || !to) continue;
    for (let k = 0; k < gain.n && flights < MAX_FLIGHTS; k += 1, flights += 1) {
      fly(from, to.closest(".good") || to, gain.good, k);
    }
  }
}

/** Where a thing is: its closest container that says (data-place, a Shop's or a slot's key). */
function placeOf(el) {
  for (let up = el.parentElement; up; up = up.parentElement) {
    const d = up.dataset;
    if (d.place) return `p:${d.place}`;
    if (d.anim) return `a:${d.anim}`;
    if (d.key) return `k:${d.key}`;
  }
  return "";
}

function flipIn(el) {
  el.animate([
    { transform: "perspective(600px) rotateY(90deg)", opacity: 0.3 },
    { transform: "perspective(600px) rotateY(0deg)", opacity: 1 },
  ], { duration: FLIP_MS, easing: "ease-out" });
}

function tick(el, down) {
  el.animate([
    { transform: "scale(1)" },
    { transform: "scale(1.45)", color: down ? "#a40000" : "#1b6b1b", offset: 0.35 },
    { transform: "scale(1)" },
  ], { duration: TICK_MS, easing: "ease-out" });
}

/** A Good's icon flying from a Shop to a seat's supply (a copy over the page, removed after). */
function fly(from, to, good, k) {
  const a = from.getBoundingClientRect();
  const b = to.getBoundingClientRect();
  const token = document.createElement("span");
  token.className = `icon icon-art icon-${good} flying`;
  token.setAttribute("aria-hidden", "true");
  const x0 = a.left + a.width / 2 - 10;
  const y0 = a.top + 20;
  Object.assign(token.style, { left: `${x0}px`, top: `${y0}px` });
  document.body.appendChild(token);
  const dx = b.left + 4 - x0;
  const dy = b.top + 2 - y0;
  const anim = token.animate([
    { transform: "translate(0, 0) scale(1.3)", opacity: 0.95 },
    { transform: `translate(${dx / 2}px, ${dy / 2 - 40}px) scale(1.15)`, opacity: 1,
      offset: 0.5 },
    { transform: `translate(${dx}px, ${dy}px) scale(.9)`, opacity: 0.6 },
  ], { duration: FLY_MS, delay: 90 * k, easing: "ease-in-out", fill: "backwards" });
  const done = () => token.remove();
  anim.onfinish = done;
  anim.oncancel = done;
}
