// The game table: draws one seat's view and turns the legal actions into clickable things.
//
// How clicks become actions: every legal action names the things it concerns (its "args":
// shop, slot, artisan, enchantment, fancy, good, to, companion). Each such thing gets a key
// ("shop:fogo-de-char", "slot:fogo-de-char:2", "artisan:cutlet", "good:BREAD", "player:1"),
// and the element that shows it carries that key in data-key. An element is clickable only
// when some legal action names its key. Clicking narrows the legal actions to those naming
// it: one left is sent at once; several left stay selected, their other things light up and
// their texts are listed as buttons. Things that are not on the board (Fancy Dragons being
// drawn, Goods from the supply, a Companion on offer) are drawn as tiles in the prompt.

import { brand, h, fill, languageSwitch } from "./dom.js";
import {
  GOODS, SEAT_MARKS, SOURCE_LABELS, acceptsOf, artisanCard, companionCard, details,
  enchCard, fancyCard, goodName, icon, rewardIcons, seatToken, withIcons,
} from "./cards.js";
import { N_, t } from "./i18n.js";
import { clockTime, timeLeft } from "./clock.js";
import { enabled, play, setAnimations, snapshot } from "./motion.js";

// Actions that gain something from the supply: their Good is a supply tile, not your own Good.
const GAIN_KINDS = new Set(["take_good", "gain_good", "gain_two", "gain_set", "choose_type"]);
// Actions that are also offered as buttons even though a board element stands for them.
const BUTTON_TOO = new Set(["draw_deck", "use_ability"]);
const LOG_LINES = 60;
// Declines that "skip the rest of my turn" sends one after another (the optional steps after
// gathering or enchanting). It stops at anything else: a Sun Dragon to reveal (whose decline,
// "end turn", is never sent for you), a gift owed, a choice with something to gain.
const SKIP_REST = new Set(["place", "fire", "ability", "firing", "companion"]);

const HINTS = {
  keep_fancy: N_("Pick the Fancy Dragon to keep (its goal is on the card)."),
  take_good: N_("Pick a Good to start with."),
  visit: N_("Click a highlighted Shop to visit it."),
  gather: N_("Gather: take the Shop's Goods, then you may place a dragon, fire one up, use the "
    + "Shop ability."),
  enchant: N_("Enchant: cast an Enchantment matching this Shop, then fire up all dragons here."),
  give: N_("Visiting an occupied Shop: give each Flamekeeper there a Good or a Coin."),
  gain_good: N_("Pick a Good to gain."),
  draw_park: N_("Click a dragon in the Park, or the Artisan deck, to draw it."),
  place: N_("Click a dragon in your hand, then a highlighted slot (or the other way round)."),
  fire: N_("Click a highlighted dragon to fire it up."),
  use_ability: N_("Click the Shop's ability to use it."),
  cast: N_("Click a highlighted Enchantment to cast it."),
  pay: N_("Choose how to pay: with Goods, Coins, or both."),
  gift: N_("Click one of your Goods, then the player to gift it to."),
  discard: N_("You hold more than 6 dragons: click one to discard."),
  reveal: N_("A Sun Dragon's goal is met: click it to reveal it and score."),
  reserve: N_("Click an Enchantment to reserve it."),
  swap: N_("Click the dragon to swap with."),
  return: N_("Click a Good to return."),
  pick_companion: N_("Pick a Companion."),
};

/** The keys of the things an action concerns (see the comment at the top). */
export function keysOf(action) {
  const args = action.args || {};
  const kind = action.kind || "";
  const keys = [];
  const push = (k) => { if (!keys.includes(k)) keys.push(k); };
  if (kind === "draw_deck") push("deck:artisan");
  for (const [name, value] of Object.entries(args)) {
    const values = Array.isArray(value) ? value : [value];
    for (const v of values) {
      if (v === undefined) continue;
      switch (name) {
        case "shop":
          if (args.slot === undefined) push(kind === "use_ability" ? `ability:${v}` : `shop:${v}`);
          break;
        case "slot": push(`slot:${args.shop}:${v}`); break;
        case "artisan": push(`artisan:${v}`); break;
        case "enchantment": push(`ench:${v}`); break;
        case "fancy": push(`fancy:${v}`); break;
        case "companion": push(`companion:${v}`); break;
        case "good": case "item": case "goods":
          // "goods" is a list of Goods for gain_set, but a count when paying
          if (typeof v !== "string") break;
          push(GAIN_KINDS.has(kind) ? `supply:${v}` : `good:${v}`); break;
        case "gain": push(`supply:${v}`); break;
        case "to":
          if (v === "deck") push("to:deck");
          else push(v === null || v === "supply" || v === -1 ? "to:supply" : `player:${v}`);
          break;
        default: break; // sets, coins, n, skip…: told apart by the listed texts
      }
    }
  }
  return keys;
}

const ERROR_TEXT = {
  illegal: N_("That move is not allowed right now."),
  stale: N_("The game moved on before your choice arrived; the board is up to date now — "
    + "please choose again."),
  out_of_turn: N_("It is not your turn yet."),
  malformed: N_("The server did not understand that message."),
  too_big: N_("That message was too large for the server."),
  rate_limited: N_("Too many clicks at once — please slow down a little."),
  bad_token: N_("This link does not match its seat. Ask the game's creator for your invite link."),
  too_many: N_("The server is full for now (too many open tables or spectators): try again later."),
  unavailable: N_("The server has a fault of its own just now; it heals by itself — try again in a moment."),
};

// How long a touch is held to open a card's details instead of tapping it.
const LONG_PRESS_MS = 500;

export class Table {
  /**
   * @param {HTMLElement} root
   * @param {import("./cards.js").Catalog} cat
   * @param {{send?: (msg: object) => boolean, readOnly?: boolean, title?: string,
   *          extraTop?: () => Node[], onRematch?: () => void, gameId?: string,
   *          seatView?: boolean}} opts (seatView: a read-only table seen as the message's
   *          seat, its own side drawn: a seat's replay)
   */
  constructor(root, cat, opts = {}) {
    this.root = root;
    this.cat = cat;
    this.opts = opts;
    this.msg = null;
    this.sel = null; // {keys: [...], cands: [action indices into legal]}
    this.busy = false;
    this.notice = null;
    this.noticeTimer = null;
    this.digits = "";
    this.digitTimer = null;
    this.conn = "open";
    this.detailPinned = false;
    this.detail = null;
    // Shops to a row: read once (a layout), again only when the table's width changes
    // (then the Park follows)
    this.shopColumns = 0;
    if (window.ResizeObserver) {
      new ResizeObserver(() => { this.shopColumns = 0; this.placePark(); }).observe(root);
    }
    root.addEventListener("click", (e) => this.onClick(e));
    root.addEventListener("keydown", (e) => this.onKeyOnElement(e));
    root.addEventListener("mouseover", (e) => this.onHover(e));
    root.addEventListener("focusin", (e) => this.onHover(e));
    // the details of a pointed-at card float over the table: gone when the pointer leaves
    root.addEventListener("mouseout", (e) => this.onLeave(e));
    root.addEventListener("contextmenu", (e) => this.onLongPress(e));
    // a long press (touch or pen) opens a card's details and makes no move: a timer on
    // pointer events, since iOS Safari fires no contextmenu on touch and Chromium's turns
    // into a tap (LONG_PRESS_MS; a move or a lift before it is an ordinary tap)
    root.addEventListener("pointerdown", (e) => this.pressStart(e));
    for (const end of ["pointerup", "pointercancel", "pointerleave"]) {
      root.addEventListener(end, () => this.pressEnd());
    }
    root.addEventListener("pointermove", (e) => this.pressMove(e));
    root.addEventListener("click", (e) => this.swallowPressClick(e), true);
    this.keyHandler = (e) => this.onGlobalKey(e);
    this.pointerHandler = () => { this.lastInput = "pointer"; };
    document.addEventListener("keydown", this.keyHandler);
    document.addEventListener("pointerdown", this.pointerHandler);
  }

  destroy() {
    document.removeEventListener("keydown", this.keyHandler);
    document.removeEventListener("pointerdown", this.pointerHandler);
  }

  /** The choices a person makes here: the server's composite choices (session/compose.py:
   * a whole payment, visit and gather or enchant…), or the engine's actions from an older
   * server. Each is sent back by its stable text. */
  get legal() {
    return (this.msg && (this.msg.choices || this.msg.legal)) || [];
  }

  /** The one choice this page takes without asking: the only one there is, unless it is
   * the end of the turn (always confirmed). The action still goes through the server, so
   * every seat sees the same sequence. */
  automatic() {
    const listed = this.legal;
    return this.myTurn && listed.length === 1 && !listed[0].confirm && listed[0].steps
      ? listed[0] : null;
  }

  get myTurn() {
    return !this.opts.readOnly && this.legal.length > 0;
  }

  /** The decline of this decision that "skip the rest of my turn" may send, if any. */
  skippable() {
    // (a composite that declines and then does something is not a skip)
    return this.legal.find((a) => a.kind === "skip" && SKIP_REST.has((a.args || {}).skip)
      && a.declines !== false);
  }

  /** A new state message from the server. */
  update(msg) {
    const sameDecision = this.msg && msg.version === this.msg.version;
    // details opened on a card (a tap or a long press) close when the turn changes
    const turn = msg.view ? msg.view.turn : undefined;
    if (this.detailPinned && this.msg && this.msg.view && this.msg.view.turn !== turn) {
      this.detail = null;
      this.detailPinned = false;
    }
    this.msg = msg;
    this.busy = false;
    if (!sameDecision) this.sel = null;
    if (this.sel) {
      // keep a selection only if its candidates are still the same legal actions
      const texts = new Set(this.legal.map((a) => a.text));
      if (!this.sel.texts.every((t) => texts.has(t))) this.sel = null;
    }
    // "skip the rest of my turn": the next optional step is declined too, without a redraw
    // in between, as long as the turn lasts and the step is one of those declines
    if (this.skipping !== undefined) {
      const next = this.myTurn && msg.view && msg.view.turn === this.skipping && this.skippable();
      if (next && !sameDecision) {
        this.msg = msg;
        if (this.opts.onUpdate) this.opts.onUpdate(this);
        this.send(next.index);
        if (this.busy) return;
      }
      if (!next) this.skipping = undefined;
    }
    const auto = !sameDecision && this.automatic();
    if (auto) {
      this.send(auto.index);
      if (this.busy) return;
    }
    this.render();
    if (this.opts.onUpdate) this.opts.onUpdate(this);
  }

  /** Declines this optional step and each one after it in this turn (one click for what
   * took up to four: do not place, do not fire up, do not use the ability…). */
  skipRest() {
    const first = this.skippable();
    if (!first || !this.msg.view) return;
    this.skipping = this.msg.view.turn;
    this.send(first.index);
  }

  setConnection(status, info) {
    this.conn = status;
    this.connInfo = info || {};
    if (status !== "open" && this.presence) {
      this.presence = null;  // what it said is stale until the next one arrives
      this.paintPresence();
    }
    const el = this.root.querySelector(".conn");
    if (el) fill(el, this.connText());
    if (el) el.className = `conn conn-${status}`;
  }

  connText() {
    if (this.opts.readOnly && !this.opts.send) return "";
    if (this.conn === "open") return t("● connected");
    if (this.conn === "connecting") return t("◌ connecting…");
    const secs = Math.max(1, Math.round((this.connInfo.retryInMs || 1000) / 1000));
    return t("○ connection lost — retrying in {secs}s", { secs });
  }

  /** Shows a polite message (an error from the server, or a local problem). */
  showError(err) {
    const base = ERROR_TEXT[err.code] ? t(ERROR_TEXT[err.code]) : t("Something went wrong.");
    const detail = err.message && err.code !== "stale" ? err.message : "";
    this.busy = false;
    this.skipping = undefined;
    this.setNotice(detail && !detail.startsWith(base) ? `${base} ${detail}` : base, "error");
    this.render();
  }

  setNotice(text, kind = "info") {
    this.notice = { text, kind };
    clearTimeout(this.noticeTimer);
    this.noticeTimer = setTimeout(() => {
      this.notice = null;
      const el = this.root.querySelector(".notice");
      if (el) fill(el);
    }, 9000);
    const el = this.root.querySelector(".notice");
    if (el) this.drawNotice(el);
  }

  drawNotice(el) {
    fill(el);
    if (!this.notice) return;
    el.appendChild(h("div", { class: `notice-box ${this.notice.kind}` },
      h("span", {}, this.notice.text),
      h("button", { class: "link", "aria-label": t("Dismiss message"),
        onclick: (e) => { e.stopPropagation(); this.notice = null; fill(el); } }, "✕")));
  }

  // ---------------------------------------------------------------- acting

  send(index) {
    const action = this.legal.find((a) => a.index === index);
    if (!action || this.busy || !this.opts.send) return;
    const ok = this.opts.send(action.steps === undefined
      ? { type: "act", version: this.msg.version, index }
      : { type: "act", version: this.msg.version, choice: action.text });
    if (!ok) {
      this.setNotice(t("Not connected right now — reconnecting; please try again in a moment."),
        "error");
      return;
    }
    this.markBusy();
  }

  /** Waiting for the server's answer: nothing is clickable, and the prompt says so. (Not a
   * whole redraw: the answer redraws the table a few milliseconds later anyway.) */
  markBusy() {
    this.refocus = this.focusedKey(); // the prompt is emptied below: remember the keyboard
    this.busy = true;
    this.sel = null;
    Object.assign(this.root.dataset, { busy: "1", myturn: "0", selecting: "0" });
    this.root.classList.add("is-busy");
    for (const el of this.root.querySelectorAll(".selected")) el.classList.remove("selected");
    const prompt = this.root.querySelector(".prompt");
    if (prompt) fill(prompt, h("p", { class: "prompt-text" }, t("Sending your choice…")));
  }

  undo() {
    if (!this.msg || this.busy || !this.opts.send) return;
    if (this.opts.send({ type: "undo", version: this.msg.version })) {
      this.markBusy();
    } else {
      this.setNotice(t("Not connected right now — reconnecting."), "error");
    }
  }

  /** The clickable keys now: of every legal action, or of the selection's candidates. */
  clickableKeys() {
    const out = new Map(); // key -> candidate actions
    if (!this.myTurn || this.busy) return out;
    const pool = this.sel ? this.sel.cands : this.legal;
    for (const a of pool) {
      for (const k of keysOf(a)) {
        if (!out.has(k)) out.set(k, []);
        out.get(k).push(a);
      }
    }
    if (this.sel) for (const k of this.sel.keys) out.delete(k);
    return out;
  }

  choose(key) {
    if (!this.myTurn || this.busy) return;
    if (this.sel && this.sel.keys.includes(key)) {
      // clicking a picked thing again takes it back (the others stay picked)
      const keys = this.sel.keys.filter((k) => k !== key);
      const cands = this.legal.filter((a) => keys.every((k) => keysOf(a).includes(k)));
      this.sel = keys.length && cands.length ? { keys, cands, texts: cands.map((a) => a.text) }
        : null;
      this.render();
      return;
    }
    const pool = this.sel ? this.sel.cands : this.legal;
    let cands = pool.filter((a) => keysOf(a).includes(key));
    let keys = this.sel ? [...this.sel.keys, key] : [key];
    if (!cands.length) {
      cands = this.legal.filter((a) => keysOf(a).includes(key));
      keys = [key];
    }
    if (!cands.length) return;
    // one left is sent at once, but a set of Goods waits for its confirm (three clicks, then
    // the button: a Good clicked by mistake can still be changed)
    if (cands.length === 1 && cands[0].kind !== "gain_set") {
      this.send(cands[0].index);
      return;
    }
    this.sel = { keys, cands, texts: cands.map((a) => a.text) };
    this.render();
  }

  onClick(event) {
    const target = event.target.closest(".can[data-key]");
    if (target && this.root.contains(target)) {
      event.preventDefault();
      this.choose(target.dataset.key);
      return;
    }
    const card = event.target.closest("[data-detail]");
    // a listed choice names its card for hovering; clicking it chooses, nothing more
    if (card && !card.closest(".legal, .choices")) {
      this.showDetail(card.dataset.detail, true, null, card);
    }
  }

  onKeyOnElement(event) {
    if (event.key !== "Enter" && event.key !== " ") return;
    const target = event.target;
    if (!(target instanceof HTMLElement) || target.tagName === "BUTTON") return;
    if (target.matches(".can[data-key]")) {
      event.preventDefault();
      this.choose(target.dataset.key);
    } else if (target.matches("[data-detail]")) {
      event.preventDefault();
      this.showDetail(target.dataset.detail, true, null, target);
    }
  }

  onGlobalKey(event) {
    if (!this.root.isConnected) return;
    if (event.key === "Tab" || event.key === "Enter" || event.key === " ") this.lastInput = "key";
    const tag = (event.target && event.target.tagName) || "";
    if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT") return;
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.key === "Escape") {
      if (this.sel) {
        this.sel = null;
        this.render();
      }
      this.hideDetail();
      return;
    }
    if (!/^[0-9]$/.test(event.key) || !this.myTurn || this.busy) return;
    event.preventDefault();
    const before = this.digits;
    this.digits += event.key;
    clearTimeout(this.digitTimer);
    const n = this.legal.length;
    const pick = () => {
      const k = Number(this.digits);
      this.digits = "";
      if (k >= 1 && k <= this.legal.length) this.send(this.legal[k - 1].index);
    };
    // A digit that would make no choice's number acts on the digits before it: "1" pressed
    // twice among 10 choices picks the first, rather than asking for an 11th and doing nothing.
    if (before && Number(this.digits) > n) {
      this.digits = before;
      pick();
      return;
    }
    // act at once when no longer number could start with these digits, else wait a moment
    if (Number(this.digits) * 10 > n) pick();
    else this.digitTimer = setTimeout(pick, 700);
  }

  onHover(event) {
    const card = event.target.closest && event.target.closest("[data-detail]");
    if (card && !this.detailPinned) {
      // a highlighted card: its details say what each choice on it costs and gives too
      const can = card.closest(".can[data-key]");
      this.showDetail(card.dataset.detail, false, can ? can.dataset.key : null, card);
    }
  }

  onLeave(event) {
    if (this.detailPinned || !this.detail) return;
    const from = event.target.closest && event.target.closest("[data-detail]");
    const to = event.relatedTarget && event.relatedTarget.closest
      && event.relatedTarget.closest("[data-detail]");
    if (from && !to) this.hideDetail();
  }

  onLongPress(event) {
    const card = event.target.closest && event.target.closest("[data-detail]");
    if (!card) return;
    event.preventDefault();
    if (this.pressed) return; // the long press's timer has shown it already
    this.showDetail(card.dataset.detail, true);
  }

  pressStart(event) {
    this.pressEnd();
    this.pressed = false;
    if (event.pointerType === "mouse" || !event.isPrimary) return;
    const card = event.target.closest && event.target.closest("[data-detail]");
    if (!card) return;
    this.press = { x: event.clientX, y: event.clientY,
      timer: setTimeout(() => {
        this.pressed = true;
        this.showDetail(card.dataset.detail, true);
      }, LONG_PRESS_MS) };
  }

  pressMove(event) {
    if (this.press && Math.hypot(event.clientX - this.press.x,
      event.clientY - this.press.y) > 10) this.pressEnd();
  }

  pressEnd() {
    if (this.press) clearTimeout(this.press.timer);
    this.press = null;
  }

  /** The click that ends a long press opened the details: it chooses nothing. */
  swallowPressClick(event) {
    if (!this.pressed) return;
    this.pressed = false;
    event.preventDefault();
    event.stopPropagation();
  }

  showDetail(spec, pin, key = null, el = null) {
    if (!spec) return;
    // the box floats on the side away from the card, never over it
    const r = el && el.getBoundingClientRect();
    const side = r && r.left + r.width / 2 > window.innerWidth / 2 ? "left" : "right";
    this.detail = { spec, pin, key, side };
    this.detailPinned = pin;
    const box = this.root.querySelector(".details");
    if (box) this.drawDetail(box);
  }

  hideDetail() {
    this.detail = null;
    this.detailPinned = false;
    const box = this.root.querySelector(".details");
    if (box) this.drawDetail(box);
  }

  /** The card-details box: what the hovered, focused or tapped card does. */
  drawDetail(box) {
    box.classList.toggle("pinned", Boolean(this.detail && this.detail.pin));
    box.classList.toggle("empty", !this.detail);
    box.classList.toggle("left", Boolean(this.detail && this.detail.side === "left"));
    if (!this.detail) {
      fill(box, h("p", { class: "muted" },
        t("Point at a card (or tap and hold it) to read it here.")));
      return;
    }
    const spec = this.detail.spec;
    const cut = spec.indexOf(":");
    const info = details(this.cat, spec.slice(0, cut), spec.slice(cut + 1));
    fill(box, h("div", { class: "details-head" }, h("strong", {}, info.title),
      h("button", { class: "link", "aria-label": t("Close card details"),
        onclick: (e) => { e.stopPropagation(); this.hideDetail(); } }, "✕")),
    info.lines.map((line) => h("p", {}, line)), this.myFancyGoal(spec), this.detailChoices());
  }

  /** One of your own unscored Fancy Dragons: its goal, your progress and its reward. */
  myFancyGoal(spec) {
    const seat = this.msg.seat;
    const view = this.msg.view;
    if (!spec.startsWith("fancy:") || seat === null || seat === undefined || !view) return null;
    const goal = ((view.players[seat] || {}).fancy_goals || {})[spec.slice(6)];
    return goal ? h("p", { class: "fancy-goal" }, goal) : null;
  }

  /** The choices the card in the details box makes now, each with its facts. */
  detailChoices() {
    const key = this.detail && this.detail.key;
    const cands = key ? this.clickableKeys().get(key) : null;
    if (!cands || !cands.length) return null;
    return h("ul", { class: "detail-choices", "aria-label": t("Choices here") },
      cands.slice(0, 6).map((a) => h("li", {}, withIcons(shownText(a)),
        a.facts ? h("span", { class: "facts" }, " ", withIcons(a.facts)) : null)),
      cands.length > 6 ? h("li", { class: "muted" },
        t("… {n} more", { n: cands.length - 6 })) : null);
  }

  // ---------------------------------------------------------------- drawing

  render() {
    if (!this.msg) return;
    // (timed for bench/click_to_screen.py: a "flamecraft-render" measure per redraw)
    const started = performance.now();
    this.draw();
    performance.measure("flamecraft-render", { start: started });
  }

  draw() {
    if (!this.msg.view) {
      fill(this.root, h("p", { class: "loading" }, t("The game has not started yet.")));
      return;
    }
    const focusKey = this.focusedKey() || this.refocus;
    this.refocus = null;
    const view = this.msg.view;
    // what is where before the redraw, for the motion after it (a new state only). States
    // that arrive within one frame (a burst of bot moves) share the first one's snapshot and
    // play once, at the frame: a layout per frame, not one per message.
    const newState = this.drawnVersion !== this.msg.version;
    if (newState && this.drawnView && !this.motion && enabled()) {
      this.motion = { before: snapshot(this.root), was: this.drawnView };
    }
    // for tests and styling: which state is drawn, and whether a choice is awaited here
    Object.assign(this.root.dataset, { version: String(this.msg.version),
      myturn: this.myTurn && !this.busy ? "1" : "0", busy: this.busy ? "1" : "0",
      over: view.over ? "1" : "0", selecting: this.sel ? "1" : "0",
      // a decision about the Town: on a phone the Town comes first (style.css)
      where: this.myTurn && this.legal.some((a) => a.kind === "visit") ? "town" : "" });
    this.root.classList.toggle("is-busy", this.busy);
    // the top bar, then the table as the page's main landmark
    fill(this.root, this.drawTop(view), h("main", { class: "table-main" },
      h("section", { class: "prompt", "aria-live": "polite", "aria-label": t("What to do now") },
        this.drawPrompt(view)),
      h("div", { class: "notice", role: "alert" }),
      this.drawSoloIntro(view),
      this.opts.extraTop ? this.opts.extraTop() : null,
      view.over ? this.drawScores(view) : null,
      h("div", { class: "board" },
        // the others' last turns head the Town's column, so your side and the others' start
        // right under the prompt (on a phone they come first, style.css)
        h("div", { class: "col-main" },
          this.drawTurns(view), this.drawTown(view), this.drawRows(view)),
        h("div", { class: "col-side" },
          h("section", { class: "details", role: "region", "aria-label": t("Card details") }),
          this.drawMe(view), this.drawOthers(view), this.drawLegal(), this.drawLog()))));
    this.placePark();
    this.paintPresence();
    this.drawNotice(this.root.querySelector(".notice"));
    this.drawDetail(this.root.querySelector(".details"));
    this.decorate();
    this.drawnView = view;
    if (this.motion && !this.motionFrame) {
      this.motionFrame = requestAnimationFrame(() => {
        const { before, was } = this.motion;
        this.motion = null;
        this.motionFrame = 0;
        if (this.root.isConnected) play(this.root, before, { gained: gains(was, this.drawnView) });
      });
    }
    // keep the keyboard where it was; if that thing is gone, or a move was made (a new
    // decision: the same key may now be another choice, a decline even), or a keyboard
    // player's turn comes round again, go to the first choice
    const moved = this.drawnVersion !== undefined && this.drawnVersion !== this.msg.version;
    this.drawnVersion = this.msg.version;
    let target = null;
    if (focusKey) {
      const el = [...this.root.querySelectorAll("[data-focus], [data-key]")]
        .find((e) => (e.dataset.focus || e.dataset.key) === focusKey);
      const choice = el && el.matches(".choice, .can, .legal-item");
      if (el && el.tabIndex >= 0 && !(moved && choice && this.myTurn)) target = el;
    }
    if (!target && (focusKey || this.lastInput === "key") && this.myTurn && !this.busy) {
      target = this.firstChoice();
    }
    // (never out of the table chat, chat.js: someone typing there keeps typing)
    const typing = document.activeElement && document.activeElement.closest
      && document.activeElement.closest(".chat");
    if (target && !typing) target.focus({ preventScroll: true });
  }

  /** A solo game says what solo adds (Town Bustle, the turn limit, the achievements, the
   * titles): open until the first turn is over, folded under its heading after (or as the
   * player left it). */
  drawSoloIntro(view) {
    if (!view.solo || !view.solo_intro || view.over) return null;
    const first = view.turn <= 1;
    const open = this.soloIntroOpen === undefined ? first : this.soloIntroOpen;
    // the toggle event also follows a drawn `open`: only a change the player made is kept
    return h("details", { class: "solo-intro", open,
      ontoggle: (e) => { if (e.target.open !== first) this.soloIntroOpen = e.target.open; } },
    h("summary", {}, t("How solo works")),
    view.solo_intro.map((line) => h("p", {}, line)));
  }

  /** The first choice of this decision that is not a decline (Enter on it must not skip a
   * step): a listed choice, else a highlighted thing, else a choice in the full list; a
   * decline only when nothing else is offered. */
  firstChoice() {
    const r = this.root;
    return r.querySelector(".prompt .choices button:not(.decline):not(.cancel)")
      || r.querySelector(".can") || r.querySelector(".legal-item:not(.decline)")
      || r.querySelector(".prompt .choices button, .prompt button:not(.hint-button), .legal-item");
  }

  /** What has the keyboard focus in the table, to find it again after a redraw. */
  focusedKey() {
    const el = document.activeElement;
    if (!el || el === document.body || !this.root.contains(el)) return null;
    return el.dataset.focus || el.dataset.key || "?";
  }

  /** Marks clickable elements, and draws tiles for the things not on the board. */
  decorate() {
    const clickable = this.clickableKeys();
    const present = new Set();
    const last = this.lastMoveKeys();
    if (last.size) {
      for (const el of this.root.querySelectorAll("[data-key], [data-detail]")) {
        if (el.closest(".log, .legal, .prompt, .details")) continue;
        if (last.has(el.dataset.key) || last.has(el.dataset.detail)) el.classList.add("last-move");
      }
    }
    for (const el of this.root.querySelectorAll("[data-key]")) {
      const key = el.dataset.key;
      const cands = clickable.get(key);
      if (this.sel && this.sel.keys.includes(key)) el.classList.add("selected");
      if (!cands) continue;
      present.add(key);
      el.classList.add("can");
      el.tabIndex = 0;
      if (el.tagName !== "BUTTON") el.setAttribute("role", "button");
      const label = cands.length === 1 ? labelOf(cands[0])
        : t("{n} choices: {list}", { n: cands.length, list: cands.slice(0, 4).map(labelOf)
          .join(t("; ")) });
      nameAndChoices(el, label);
    }
    const offer = this.root.querySelector(".offer");
    if (!offer) return;
    // the things to click that the board does not show (a drawn card, a supply Good…), and
    // those of them already picked (shown picked, a click takes one back), in the order of
    // the legal list
    const onBoard = new Set([...this.root.querySelectorAll("[data-key]")]
      .map((el) => el.dataset.key));
    const picked = new Set(this.sel ? this.sel.keys : []);
    const keys = new Set();
    for (const a of this.legal) {
      for (const k of keysOf(a)) {
        if ((clickable.has(k) || picked.has(k)) && !onBoard.has(k)) keys.add(k);
      }
    }
    const tiles = [];
    for (const key of keys) {
      const cands = clickable.get(key);
      const tile = this.tile(key);
      tile.classList.add("can");
      tile.tabIndex = 0;
      if (tile.tagName !== "BUTTON") tile.setAttribute("role", "button");
      if (!cands) {
        tile.classList.add("selected");
        tile.setAttribute("aria-pressed", "true");
        nameAndChoices(tile, t("Picked — click again to take it back"));
      } else {
        nameAndChoices(tile, cands.length === 1 ? labelOf(cands[0])
          : t("{n} choices", { n: cands.length }));
      }
      tiles.push(tile);
    }
    fill(offer, tiles);
    offer.hidden = tiles.length === 0;
  }

  /** A tile for a thing that is not drawn on the board (a drawn card, a supply Good…). */
  tile(key) {
    const cut = key.indexOf(":");
    const kind = key.slice(0, cut);
    const id = key.slice(cut + 1);
    if (kind === "fancy") {  // a drawn one to keep: its goal, your progress, its reward
      const mine = this.msg.view.players[this.msg.seat] || {};
      return fancyCard(this.cat, id, { dataset: { key, detail: key } }, false,
        (mine.fancy_now || {})[id], (mine.fancy_goals || {})[id]);
    }
    if (kind === "artisan") return artisanCard(this.cat, id, { dataset: { key, detail: key } });
    if (kind === "ench") return enchCard(this.cat, id, { dataset: { key, detail: key } });
    if (kind === "companion") return companionCard(this.cat, id, { dataset: { key, detail: key } });
    if (kind === "supply" || kind === "good") {
      return h("button", { class: "good-tile", dataset: { key } }, icon(id), " ", goodName(id));
    }
    if (kind === "player") {
      const p = Number(id);
      const name = this.msg.view.players[p] ? this.msg.view.players[p].name
        : t("seat {n}", { n: p + 1 });
      return h("button", { class: "pill", dataset: { key } }, `${SEAT_MARKS[p] || ""} ${name}`);
    }
    if (kind === "to") {
      return h("button", { class: "pill", dataset: { key } },
        id === "deck" ? t("the bottom of the Artisan deck") : t("the supply"));
    }
    if (kind === "deck") {
      return h("button", { class: "pill", dataset: { key } }, t("the Artisan deck"));
    }
    return h("button", { class: "pill", dataset: { key } }, id);
  }

  /** A "presence" message (docs/server.md): who is here or away, how long the seat to act
   * has been thinking, how many watch. Painted in place, not by a redraw, and ticked each
   * second from when it arrived (the server sends it only when something changes). */
  setPresence(msg) {
    const was = this.presence ? this.presence.seats.map((x) => x.status).join() : "";
    this.presence = { ...msg, at: performance.now() };
    // who is away decides what the table offers (a bot for an away seat): drawn again then
    if (msg.seats.map((x) => x.status).join() !== was) this.render();
    else this.paintPresence();
    if (!this.presenceTick) this.presenceTick = setInterval(() => this.paintPresence(), 1000);
  }

  /** Seconds since the presence message, added to one of its durations. */
  since(secs) {
    return secs + Math.max(0, Math.floor((performance.now() - this.presence.at) / 1000));
  }

  paintPresence() {
    if (!this.root || !this.msg) return;
    const p = this.presence;
    const seats = new Map((p ? p.seats : []).map((s) => [s.seat, s]));
    const names = this.msg.view ? this.msg.view.players.map((x) => x.name) : [];
    for (const el of this.root.querySelectorAll("[data-presence]")) {
      const s = seats.get(Number(el.dataset.presence));
      const status = s ? s.status : "";
      el.className = `presence ${status}`;
      if (status === "here") {
        el.textContent = "●";
        el.title = t("Connected");
        el.setAttribute("role", "img");
        el.setAttribute("aria-label", t("connected"));
      } else if (status === "away") {
        const time = awayTime(this.since(s.away));
        el.textContent = time ? t("away · {time}", { time }) : t("away");
        el.title = s.why === "hidden"
          ? t("Their tab has been hidden for {time}", { time: clockTime(this.since(s.away)) })
          : t("No connection for {time}", { time: clockTime(this.since(s.away)) });
        el.removeAttribute("role");
        el.removeAttribute("aria-label");
      } else {
        el.textContent = "";
        el.removeAttribute("title");
        el.removeAttribute("role");
        el.removeAttribute("aria-label");
      }
    }
    const acting = p && p.acting;
    for (const el of this.root.querySelectorAll("[data-thinking]")) {
      const mine = acting && acting.seat === Number(el.dataset.thinking);
      const text = mine ? ` ${clockTime(this.since(acting.thinking))}` : "";
      if (el.textContent !== text) el.textContent = text;
      el.title = mine ? t("Thinking for {time}", { time: clockTime(this.since(acting.thinking)) })
        : "";
    }
    // the prompt says when the seat it waits for is away (in words that change only then:
    // the prompt is read out)
    for (const el of this.root.querySelectorAll("[data-note]")) {
      const seat = Number(el.dataset.note);
      const s = seats.get(seat);
      const name = names[seat] || t("seat {n}", { n: seat + 1 });
      const left = this.timeLeftOf(seat);
      const away = left !== null && left <= 0
        ? t("{name} is out of time: a bot plays for them in a few seconds.", { name })
        : !s || s.status !== "away" ? ""
          : s.why === "hidden" ? t("{name} is away (their tab is hidden).", { name })
            : t("{name} is away (no connection).", { name });
      const text = away ? " " + away : "";
      if (el.textContent !== text) el.textContent = text;
    }
    for (const el of this.root.querySelectorAll("[data-clock]")) {
      const seat = Number(el.dataset.clock);
      const left = this.timeLeftOf(seat);
      const kind = p && p.clock ? p.clock.kind : "";
      const onIt = p && p.clock && p.clock.seat === seat;
      const text = left === null ? "" : left <= 0 && (onIt || kind === "realtime") ? t("out of time")
        : kind === "turn" ? t("{time} left", { time: timeLeft(left) }) : timeLeft(left);
      if (el.textContent !== text) el.textContent = text;
      el.className = `clock${onIt ? " running" : ""}${left !== null && left < 30 && onIt ? " low" : ""}`;
      el.title = !text ? "" : kind === "turn" ? t("Time left for this turn")
        : t("Time left on this seat's clock");
    }
    for (const el of this.root.querySelectorAll("[data-clocknote]")) {
      const left = this.timeLeftOf(Number(el.dataset.clocknote));
      const text = left === null || left >= 30 ? ""
        : left <= 0 ? t(" You are out of time: a bot plays for you in a few seconds, unless you choose now.")
          : t(" {n} s left.", { n: Math.ceil(left) });
      if (el.textContent !== text) el.textContent = text;
    }
    for (const el of this.root.querySelectorAll("[data-watching]")) {
      const n = p ? p.spectators : 0;
      const text = !n ? "" : n === 1 ? t("1 watching") : t("{n} watching", { n });
      if (el.textContent !== text) el.textContent = text;
    }
  }

  /** A seat's time left now (seconds), from the last presence message's clock, ticking for
   * the seat on it while a person plays it; null when the clock says nothing of it. */
  timeLeftOf(seat) {
    const clock = this.presence && this.presence.clock;
    if (!clock || !this.msg || this.msg.status !== "running") return null;
    const left = (clock.left || [])[seat];
    if (left === null || left === undefined) return null;
    const row = (this.msg.seats || [])[seat];
    const ticking = clock.seat === seat && row && row.kind === "human" && !row.stand_in;
    return ticking ? Math.max(0, left - (performance.now() - this.presence.at) / 1000) : left;
  }

  drawTop(view) {
    const me = this.msg.seat;
    const role = this.opts.readOnly ? (this.opts.replayLabel || t("Replay"))
      : me === null || me === undefined ? t("Spectating")
        : t("You are {name}", { name: view.players[me].name });
    const first = view.players[view.first_player];
    return h("header", { class: "topbar" },
      brand(),
      h("span", { class: "game-name" }, this.opts.title || ""),
      h("span", { class: "turn" }, view.turn ? t("Turn {n}", { n: view.turn }) : t("Setup")),
      first ? h("span", { class: "first-player" }, first.name === "You"
        ? t("{name} play first", { name: first.name })
        : t("{name} plays first", { name: first.name })) : null,
      view.end_triggered && !view.over ? h("span", { class: "tag warn" }, t("final round")) : null,
      h("span", { class: "role" }, role),
      h("span", { class: "watching", dataset: { watching: "" } }),
      this.opts.readOnly || this.msg.hints === undefined ? null
        : h("span", { class: `tag hints-${this.msg.hints ? "on" : "off"}`,
          title: this.msg.hints ? t("The player deciding may ask for the three best choices")
            : t("The host turned hints off for this game") },
        this.msg.hints ? t("hints on") : t("hints off")),
      h("span", { class: `conn conn-${this.conn}`, "aria-live": "polite" }, this.connText()),
      this.opts.sound ? h("button", { class: "link sound", "aria-pressed": String(this.opts.sound.on()),
        title: t("A short sound when your turn comes (off unless you turn it on)"),
        onclick: () => { this.opts.sound.toggle(); this.render(); } },
      this.opts.sound.on() ? t("♪ Sound on") : t("♪ Sound off")) : null,
      this.opts.notify && (this.msg.seats || []).filter((x) => x.kind === "human").length > 1
        ? h("button", { class: "link notify", "aria-pressed": String(this.opts.notify.on()),
        title: t("A notification from your browser when your turn comes while this tab is hidden"),
        onclick: async () => { await this.opts.notify.toggle(); this.render(); } },
      this.opts.notify.on() ? t("Notify on") : t("Notify off")) : null,
      h("button", { class: "link motion-switch", "aria-pressed": String(enabled()),
        title: t("Pieces slide, flip and fly to show each move (off: the table just changes)"),
        dataset: { focus: "motion" },
        onclick: () => { setAnimations(!enabled()); this.render(); } },
      enabled() ? t("Animations on") : t("Animations off")),
      this.concedeButton(view),
      this.msg.can_undo && !this.opts.readOnly
        ? h("button", { class: "undo", onclick: () => this.undo(), disabled: this.busy,
          dataset: { focus: "undo" } }, t("↶ Undo")) : null,
      languageSwitch());
  }

  drawPrompt(view) {
    const names = view.players.map((p) => p.name);
    const out = [];
    const abandoned = this.msg.result && this.msg.result.abandoned;
    if (abandoned !== undefined && abandoned !== null && !view.over) {
      out.push(h("p", { class: "prompt-text" }, t("{name} abandoned the game at turn {n}: it ends here, with no winner.",
        { name: names[abandoned] || "", n: view.turn })));
      if (this.opts.finishedButtons) out.push(this.opts.finishedButtons());
      return out;
    }
    // ended short by the server (a game without a person past its time) or its operator
    const ended = this.msg.result && this.msg.result.ended;
    if (ended && !view.over) {
      out.push(h("p", { class: "prompt-text" }, ended === "expired"
        ? t("This game without a person ran past its time limit: it ends here at turn {n}, with no winner.", { n: view.turn })
        : t("The server's operator ended this game at turn {n}: it ends here, with no winner.", { n: view.turn })));
      if (this.opts.finishedButtons) out.push(this.opts.finishedButtons());
      return out;
    }
    if (view.over) {
      const winners = (view.winners || []).map((w) => names[w]);
      const who = winners.join(t(" and "));
      const over = winners.length > 1 ? t("Game over — {names} share the win", { names: who })
        : t("Game over — {name} wins", { name: who });
      const rating = view.rating ? t(" (rating: {rating})", { rating: view.rating }) : "";
      out.push(h("p", { class: "prompt-text" }, t("{over}{rating}. See the scores below.",
        { over, rating })));
      if (this.opts.finishedButtons) out.push(this.opts.finishedButtons());
      return out;
    }
    if (this.busy) {
      out.push(h("p", { class: "prompt-text" }, t("Sending your choice…")));
      return out;
    }
    const mine = this.opts.readOnly ? null : this.mySeatRow();
    if (mine && mine.stand_in) {
      // a bot plays this seat: say so, and (unless conceded) offer it back
      out.push(h("p", { class: "prompt-text" }, mine.conceded
        ? t("You conceded: a bot plays your seat to the end.")
        : t("A bot is playing for you: the others asked for it while you were away.")));
      if (!mine.conceded && this.opts.seatApi) {
        out.push(h("div", { class: "choices" }, h("button", { class: "choice primary reclaim",
          dataset: { focus: "reclaim" }, onclick: () => this.seatChange("reclaim") },
        t("Take my seat back"))));
      }
      return out;
    }
    const actor = view.to_act;
    const choosing = this.msg.choosing || "";
    if (this.opts.stepText) {
      // a replay: what happened at this step (from the public log), not who is choosing
      out.push(h("p", { class: "prompt-text step-text" }, this.opts.stepText()));
    } else if (this.myTurn && this.legal.some((a) => a.confirm)) {
      // the end of the turn: the confirm, with undo of the turn's choices beside it
      out.push(h("p", { class: "prompt-text mine confirm-text" },
        h("strong", {}, t("Your turn is done")),
        t(" — confirm it, or undo to change your choices."),
        this.msg.can_undo ? h("button", { class: "undo-turn", onclick: () => this.undo(),
          disabled: this.busy, dataset: { focus: "undo-turn" } }, t("↶ Undo")) : null));
    } else if (this.myTurn) {
      const kinds = [...new Set(this.legal.map((a) => a.kind))];
      const hints = kinds.map((k) => HINTS[k]).filter(Boolean).map((x) => t(x));
      // one line: the question, and how to answer it in a smaller hand after it
      out.push(h("p", { class: "prompt-text mine" },
        h("strong", {}, t("Your turn")), t(" — choose {what}.", { what: choosing }),
        h("span", { class: "clock-note", dataset: { clocknote: this.msg.seat } }),
        hints.length ? h("span", { class: "hint" }, " ", hints.slice(0, 2).join(" ")) : null));
    } else if (actor !== undefined && actor >= 0) {
      const who = names[actor] || t("seat {n}", { n: actor + 1 });
      // What another seat is deciding is not sent (it can depend on its hidden cards).
      const turn = view.current === actor;
      const watching = this.opts.readOnly || this.msg.seat == null;
      out.push(h("p", { class: "prompt-text" }, watching
        ? (turn ? t("{name} is taking their turn…", { name: who })
          : t("{name} is choosing…", { name: who }))
        : (turn ? t("Waiting for {name} — taking their turn…", { name: who })
          : t("Waiting for {name} — choosing…", { name: who })),
      // how long they have been at it (ticking, so not read out), and whether they are here
      h("span", { class: "thinking", "aria-hidden": "true", dataset: { thinking: actor } }),
      h("span", { class: "presence-note", dataset: { note: actor } })));
    }
    if (this.sel) {
      const cands = this.sel.cands;
      const list = cands.map((a) => h("button", { class: "choice", dataset: { focus: `c${a.index}` },
        onclick: () => this.send(a.index) }, withIcons(labelOf(a))));
      const cancel = h("button", { class: "choice cancel", dataset: { focus: "cancel" },
        onclick: () => { this.sel = null; this.render(); } }, t("Cancel"));
      const narrows = [...this.clickableKeys().values()].some((c) => c.length < cands.length);
      if (cands.length > 6 && narrows) {
        // many left (three Goods of five: ten sets) and a click on the board narrows them:
        // the list is folded (open on request) and the prompt keeps to one line
        out.push(h("div", { class: "choice-row" },
          h("p", { class: "hint" }, t("Now click another highlighted thing: {n} choices left.",
            { n: cands.length })),
          h("details", { class: "sel-list", open: Boolean(this.selListOpen),
            ontoggle: (e) => { this.selListOpen = e.target.open; } },
          h("summary", {}, t("List them")), h("div", { class: "choices many" }, list)),
          h("div", { class: "choices" }, cancel)));
      } else {
        out.push(h("p", { class: "hint" }, t("Now click a highlighted thing, or pick one:")));
        out.push(h("div", { class: `choices${cands.length > 5 ? " many" : ""}` }, list, cancel));
      }
    } else if (this.myTurn) {
      const buttons = this.legal.filter((a) => !keysOf(a).length || BUTTON_TOO.has(a.kind));
      // a decline is never the first button (a quick click must not skip a choice)
      buttons.sort((a, b) => Number(isDecline(a)) - Number(isDecline(b)));
      const skip = this.skippable();
      const hintBox = this.msg.hints && this.opts.hint ? this.drawHints() : null;
      const asked = this.hinted && this.hinted.version === this.msg.version;
      if (buttons.length) {
        // the Hint button at the row's end, until asked (then its answer below the row)
        // (many long choices: a smaller hand, so the prompt covers less of the table)
        const many = buttons.length > 5 ? " many" : "";
        // what the choices (or the declines) all begin with is said once, before them, and
        // each button says what tells it apart; its accessible name stays the whole choice
        const group = (list) => {
          const lead = sharedLead(list);
          return [lead ? h("span", { class: "choice-lead" }, withIcons(capital(lead)), ":") : null,
            list.map((a) => h("button", {
              class: `choice kind-${a.kind}${a.confirm ? " confirm" : isDecline(a) ? " decline" : ""}`,
              dataset: { focus: `c${a.index}`, ...(a.detail ? { detail: a.detail } : {}) },
              "aria-label": lead ? capital(labelOf(a)) : undefined,
              onclick: () => this.send(a.index) },
            withIcons(capital(lead ? labelOf(a).slice(lead.length + 2) : labelOf(a)))))];
        };
        out.push(h("div", { class: "choice-row" }, h("div", { class: `choices${many}` },
          group(buttons.filter((a) => !isDecline(a))), group(buttons.filter(isDecline)),
        skip ? h("button", { class: "choice decline skip-rest", dataset: { focus: "skip-rest" },
          title: t("Declines this step and every optional one after it in this turn "
            + "(placing, firing up, the Shop ability); stops at any other choice"),
          onclick: () => this.skipRest() }, t("Skip the rest of my turn")) : null),
        asked ? null : hintBox));
      }
      if (hintBox && (asked || !buttons.length)) out.push(hintBox);
    }
    out.push(h("div", { class: "offer", hidden: true }));
    return out;
  }

  /** The "Hint" button at this seat's decision, and once asked the three best choices
   * (POST /api/games/{id}/hint: from this seat's view only) with why and the win chance. */
  drawHints() {
    const version = this.msg.version;
    const got = this.hinted && this.hinted.version === version ? this.hinted : null;
    const box = h("section", { class: `hints-box${got ? " answered" : ""}`,
      "aria-label": t("Hints"), "aria-live": "polite" });
    if (!got) {
      box.appendChild(h("button", { class: "hint-button", dataset: { focus: "hint" },
        title: t("The three best choices as a bot sees them from your view (your cards only)"),
        onclick: () => this.askHint() },
        h("span", { class: "icon icon-art icon-HINT", "aria-hidden": "true" }), t("Hint")));
      return box;
    }
    if (got.loading) {
      box.appendChild(h("p", { class: "muted" }, t("Thinking about your choices…")));
      return box;
    }
    if (got.error) {
      box.appendChild(h("p", { class: "error" }, t("No hint: {error}", { error: got.error })));
      return box;
    }
    box.appendChild(h("p", { class: "hints-head" }, h("strong", {}, t("Hints")),
      t(" — from your view only, the rest of your turn planned:")));
    box.appendChild(h("ol", { class: "hints-list" }, got.hints.map((hint, rank) => {
      const action = this.legal.find((a) => a.text === hint.action || a.first === hint.action);
      const win = hint.win === null || hint.win === undefined ? ""
        : t("{pct}% to win", { pct: Math.round(100 * hint.win) });
      const gap = rank === 0 ? t("best") : t("{loss} Rep behind", { loss: hint.loss.toFixed(1) });
      return h("li", { class: "hint-item" },
        h("div", { class: "hint-line" },
          action ? h("button", { class: "choice hint-play", dataset: { focus: `h${rank}` },
            title: t("Make this choice"), onclick: () => this.send(action.index) },
          withIcons(capital(labelOf(action)))) : h("strong", {}, withIcons(hint.action)),
          " ", h("span", { class: "hint-gap" }, gap),
          win ? h("span", { class: "hint-win" }, win) : null),
        h("p", { class: "hint-reason" }, withIcons(hint.reason)));
    })));
    return box;
  }

  async askHint() {
    const version = this.msg.version;
    this.hinted = { version, loading: true };
    this.render();
    let next;
    try {
      const answer = await this.opts.hint();
      next = { version, hints: answer.hints || [] };
    } catch (err) {
      next = { version, error: err.message };
    }
    if (this.hinted && this.hinted.version === version) {
      this.hinted = next;
      if (this.msg && this.msg.version === version) this.render();
    }
  }

  /** Every other seat's last turn, one line each with what it earned (the server's
   * ``turns``: core/summary.py, as this seat may read it), between the prompt and the board,
   * so it is on the first screen; the full log, every step with its results, one click away. */
  drawTurns(view) {
    const turns = this.msg.turns || [];
    if (!turns.length || this.opts.stepText) return null;
    const names = view.players.map((p) => p.name);
    return h("section", { class: "turns", "aria-label": t("Last turns") },
      h("ul", {}, turns.map((line) => h("li", { title: line.text },
        h("span", { class: "who" }, line.last
          ? t("{name} (last turn)", { name: names[line.player] || "" })
          : names[line.player] || ""),
        h("span", { class: "muted" }, line.turn ? t(" · T{n}", { n: line.turn }) : ""),
        " — ", h("span", { class: "what" }, withIcons(line.text))))),
      h("button", { class: "link small full-log", dataset: { focus: "full-log" },
        onclick: () => this.showLog() }, t("Full log ↓")));
  }

  /** The whole log, scrolled to and given the keyboard (from "Full log"). */
  showLog() {
    this.wholeLog = true;
    this.render();
    const log = this.root.querySelector(".log");
    if (log) {
      log.scrollIntoView({ block: "start" });
      const lines = log.querySelector(".log-lines");
      if (lines) lines.focus({ preventScroll: true });
    }
  }

  /** The keys of the things the last move concerned (see lastMove()). */
  lastMoveKeys() {
    const keys = new Set();
    for (const line of this.lastMove()) {
      if (!line.kind) continue;
      // "good:X" is this seat's own Good on the board: not the thing another seat moved
      for (const k of keysOf(line)) if (!k.startsWith("good:")) keys.add(k);
    }
    return keys;
  }

  /** The lines of the last move: a replay's step; for a seat, the latest run of lines of
   * another seat (what it missed); for a spectator, the latest run of lines of one seat. */
  lastMove() {
    const lines = this.msg.log || [];
    if (this.opts.stepLines !== undefined) return lines.slice(lines.length - this.opts.stepLines());
    const me = this.readOnlySeat();
    let end = lines.length;
    while (end > 0 && me !== null && lines[end - 1].player === me) end -= 1;
    if (!end) return [];
    const who = lines[end - 1].player;
    const turn = lines[end - 1].turn;
    let begin = end;
    while (begin > 0 && lines[begin - 1].player === who && lines[begin - 1].turn === turn) begin -= 1;
    return lines.slice(begin, end);
  }

  drawTown(view) {
    const shops = [];
    let empty = 0;
    view.town.forEach((space, i) => {
      if (!space) {
        empty += 1;
        return;
      }
      if (space.face_down) {
        shops.push(h("div", { class: "shop facedown", dataset: { detail: "shop:?" } },
          h("div", { class: "shop-head" }, h("span", { class: "name" }, t("Face-down Shop"))),
          h("p", { class: "muted" }, t("New: flipped at the end of the turn."))));
        return;
      }
      shops.push(this.drawShop(view, space, i));
    });
    // the Town mat: the Fountain and the Reputation track at its head, the Shops, the Park
    return h("section", { class: "town mat", "aria-label": t("Town") },
      h("h2", { class: "mat-head" }, h("span", { class: "fountain", "aria-hidden": "true" }),
        t("Town "), h("span", { class: "muted small" },
          (view.decks.shop === 1 ? t("{n} Shop in the deck", { n: 1 })
            : t("{n} Shops in the deck", { n: view.decks.shop })) + " · "
          + (empty === 1 ? t("{n} empty space", { n: 1 }) : t("{n} empty spaces", { n: empty })))),
      // (the track under the head: always on the first screen, however many Shops; the Park
      // after the last Shop, in what is left of its row when there is room: style.css)
      this.drawTrack(view),
      h("div", { class: "shops" }, shops, this.drawPark(view)));
  }

  /** The Park follows the last Shop: it starts in the column after it and fills the rest of
   * that row (a Town of 9 to 11 Shops at four to a row keeps three rows), or takes a row of
   * its own when that row is full. (A grid item cannot say "from here to the row's end" in
   * CSS.) The number of columns is kept between redraws: reading it lays the page out. */
  placePark() {
    const shops = this.root.querySelector(".town .shops");
    const park = shops && shops.querySelector(":scope > .park");
    if (!park) return;
    if (!this.shopColumns) {
      this.shopColumns = Math.max(1,
        getComputedStyle(shops).gridTemplateColumns.split(" ").filter(Boolean).length);
    }
    park.style.gridColumn = `${((shops.children.length - 1) % this.shopColumns) + 1} / -1`;
  }

  drawPark(view) {
    const park = view.park.map((d) => artisanCard(this.cat, d,
      { dataset: { key: `artisan:${d}`, detail: `artisan:${d}` } }));
    return h("section", { class: "park", "aria-label": t("Park") }, h("div", { class: "park-body" },
      h("h2", {}, h("span", { class: "park-art", "aria-hidden": "true" }), t("Park")),
      h("div", { class: "row-cards", dataset: { place: "park" } }, park,
        h("div", { class: "card deck", dataset: { key: "deck:artisan", anim: "deck:artisan" } },
          h("span", { class: "name" }, t("Artisan deck")),
          h("span", { class: "count" }, t("{n} left", { n: view.decks.artisan }))))));
  }

  drawShop(view, shop) {
    const card = this.cat.shops[shop.id] || { name: shop.name, icon: "RAINBOW", slots: [] };
    const slots = [0, 1, 2].map((i) => {
      const dragon = shop.slots[i];
      const def = (card.slots || [])[i] || { accepts: ["ANY"], reward: {} };
      const key = `slot:${shop.id}:${i + 1}`;
      if (dragon) {
        return h("div", { class: "slot filled", dataset: { key } },
          artisanCard(this.cat, dragon, { dataset: { key: `artisan:${dragon}`,
            detail: `artisan:${dragon}` } }));
      }
      return h("div", { class: "slot empty", dataset: { key },
        title: t("empty slot {n}", { n: i + 1 }) },
      h("span", { class: "accepts" }, acceptsOf(def).map((a) => icon(a))),
      h("span", { class: "reward" }, rewardIcons(def.reward)));
    });
    // a visitor's token with its name; two or more, the tokens alone (colour and shape tell
    // them apart, the names in their titles), so the Shop's head stays one line
    const named = shop.visitors.length === 1;
    const here = shop.visitors.map((p) => {
      const who = t("{name} is here", { name: view.players[p].name });
      return h("span", { class: `token seat-${p}${named ? "" : " bare"}`, title: who,
        dataset: { anim: `tok:${p}` } },
      named ? [seatToken(p), " ", view.players[p].name] : seatToken(p, who));
    });
    const amount = card.icon_amount && card.icon_amount > 1 ? `${card.icon_amount}×` : "";
    return h("article", { class: `shop icon-bg-${card.icon}`,
      dataset: { key: `shop:${shop.id}`, detail: `shop:${shop.id}`, anim: `shop:${shop.id}` } },
    h("div", { class: "shop-head" }, amount, icon(card.icon), h("span", { class: "name" }, card.name),
      h("span", { class: "tokens" }, here)),
    h("div", { class: "slots" }, slots),
    shop.enchantments.length ? h("div", { class: "shop-ench" }, shop.enchantments.map((e) => {
      const ench = this.cat.enchantments[e] || { name: e, icon: "RAINBOW" };
      return h("span", { class: "ench-chip", dataset: { detail: `ench:${e}`, anim: `ench:${e}` } },
        icon(ench.icon), h("span", { class: "ench-name" }, ench.name));
    })) : null,
    card.ability_name ? h("div", { class: "ability", dataset: { key: `ability:${shop.id}` } },
      h("strong", {}, `${card.ability_name}: `), card.ability_text) : null);
  }

  drawRows(view) {
    const row = view.enchantment_row.map((e) => enchCard(this.cat, e,
      { dataset: { key: `ench:${e}`, detail: `ench:${e}` } }));
    return h("div", { class: "rows" },
      h("section", { class: "ench-row", "aria-label": t("Enchantments") },
        h("h2", {}, t("Enchantments "), h("span", { class: "muted small" },
          t("{n} in the deck · {fancy} Fancy Dragons in their deck",
            { n: view.decks.enchantment, fancy: view.decks.fancy }))),
        h("div", { class: "row-cards", dataset: { place: "ench-row" } }, row)));
  }

  /** The Reputation track along the mat's head: a space per point, each seat's dragon token
   * on its score (several on a space stack); it has 40 spaces, or up to the next ten past
   * the highest score. */
  drawTrack(view) {
    const top = Math.max(40, ...view.players.map((p) => 10 * Math.ceil((p.reputation + 1) / 10)));
    const at = new Map();
    view.players.forEach((p, i) => {
      if (!at.has(p.reputation)) at.set(p.reputation, []);
      at.get(p.reputation).push(i);
    });
    const spaces = [];
    for (let n = 0; n < top; n += 1) {
      const here = at.get(n) || [];
      spaces.push(h("li", { class: `rep-space${n % 5 === 0 ? " five" : ""}`,
        dataset: { place: `rep:${n}` } },
        n % 5 === 0 ? h("span", { class: "rep-n", "aria-hidden": "true" }, String(n)) : null,
        here.map((i) => seatToken(i, t("{name}: {n} Reputation",
          { name: view.players[i].name, n: view.players[i].reputation }),
        { class: `seat-token rep-token seat-${i}`, dataset: { anim: `rep:${i}` } }))));
    }
    return h("section", { class: "rep-track", "aria-label": t("Reputation track") },
      h("h2", { class: "visually-hidden" }, t("Reputation")),
      h("ol", { class: "rep-spaces" }, spaces));
  }

  goodsRow(p, mine, seat) {
    const items = GOODS.map((g) => h(mine ? "button" : "span", {
      class: `good${p.goods[g] ? "" : " zero"}`, type: mine ? "button" : undefined,
      dataset: mine ? { key: `good:${g}`, detail: `good:${g}` } : { detail: `good:${g}` },
      tabindex: mine ? -1 : undefined },
    icon(g), h("span", { class: "n", dataset: { count: `goods:${seat}:${g}` } },
      String(p.goods[g] || 0))));
    items.push(h(mine ? "button" : "span", { class: `good coin${p.coins ? "" : " zero"}`,
      type: mine ? "button" : undefined, tabindex: mine ? -1 : undefined,
      dataset: mine ? { key: "good:COIN", detail: "good:COIN" } : { detail: "good:COIN" } },
    icon("COIN"), h("span", { class: "n", dataset: { count: `goods:${seat}:COIN` } },
      String(p.coins))));
    return h("div", { class: "goods", "aria-label": t("Goods and Coins") }, items);
  }

  publicBits(view, p, seat) {
    const shop = p.position ? this.cat.shops[p.position] : null;
    const inHand = p.hand_count === 1 ? t("{n} dragon in hand", { n: 1 })
      : t("{n} dragons in hand", { n: p.hand_count });
    const bits = [
      h("span", { class: "rep", title: t("{n} Reputation", { n: p.reputation }) }, "♥",
        h("span", { dataset: { count: `rep:${seat}` } }, String(p.reputation))),
      // (said short, to keep each seat's facts on one line; the whole words in its title)
      h("span", { title: inHand }, t("{n} in hand", { n: p.hand_count })),
      h("span", {}, t("{n} Fancy", { n: p.fancy_count })),
      shop ? h("span", {}, t("at {shop}", { shop: shop.name })) : null,
    ];
    return h("div", { class: "pub" }, bits);
  }

  drawMe(view) {
    const seat = this.msg.seat;
    if (seat === null || seat === undefined || (this.opts.readOnly && !this.opts.seatView)) {
      return null;
    }
    const p = view.players[seat];
    const hand = (p.hand || []).map((d) => artisanCard(this.cat, d,
      { dataset: { key: `artisan:${d}`, detail: `artisan:${d}` } }));
    const now = p.fancy_now || {};
    const goals = p.fancy_goals || {};
    const fancy = (p.fancy || []).map((f) => fancyCard(this.cat, f,
      { dataset: { key: `fancy:${f}`, detail: `fancy:${f}` } }, false, now[f], goals[f]));
    const scored = p.scored.map((f) => fancyCard(this.cat, f,
      { dataset: { key: `fancy:${f}`, detail: `fancy:${f}` } }, true));
    return h("section", { class: `player me seat-${seat}${view.to_act === seat ? " acting" : ""}`,
      "aria-label": t("Your side") },
    h("h2", {}, seatToken(seat), ` ${p.name} `, h("span", { class: "tag" }, t("you")),
      h("span", { class: "clock", dataset: { clock: seat } })),
    this.publicBits(view, p, seat),
    this.goodsRow(p, true, seat),
    h("h3", {}, t("Hand ({n}/6)", { n: hand.length })),
    h("div", { class: "hand", dataset: { place: "hand" } }, hand.length ? hand
      : h("span", { class: "muted" }, t("no dragons"))),
    h("h3", { title: t("Secret goals: ☀ reveal on your turn once met, ☾ scored at the end.") },
      t("Fancy Dragons")),
    h("div", { class: "fancies", dataset: { place: "fancies" } }, fancy, scored),
    p.reserved ? [h("h3", {}, t("Reserved Enchantment")),
      enchCard(this.cat, p.reserved, { dataset: { key: `ench:${p.reserved}`,
        detail: `ench:${p.reserved}` } })] : null,
    p.companion ? [h("h3", {}, t("Companion")), companionCard(this.cat, p.companion,
      { dataset: { key: `companion:${p.companion}`, detail: `companion:${p.companion}` } })] : null,
    p.achievements && p.achievements.length ? [h("h3", {}, t("Achievements")),
      h("ul", {}, p.achievements.map((a) => h("li", {},
        (this.cat.achievements[a] || { name: a }).name)))] : null);
  }

  drawOthers(view) {
    const seat = this.readOnlySeat();
    const others = view.players.map((p, i) => ({ p, i })).filter(({ i }) => i !== seat);
    if (!others.length) return null;
    return h("section", { class: "others", "aria-label": t("Other players") },
      // a div, not an article: a seat to give to is a button (role="button" is not allowed
      // on an article)
      others.map(({ p, i }) => h("div", { class: `player other seat-${i}`
        + `${view.to_act === i ? " acting" : ""}`, dataset: { key: `player:${i}` } },
      h("div", { class: "other-head" },
        h("h3", {}, seatToken(i), ` ${p.name}`,
          h("span", { class: "presence", dataset: { presence: i } }),
          h("span", { class: "clock", dataset: { clock: i } }),
          view.to_act === i ? h("span", { class: "tag" }, t("to act"),
            h("span", { class: "thinking", dataset: { thinking: i } })) : null),
        this.standInBits(i),
        this.publicBits(view, p, i)),
      h("div", { class: "goods-line" }, this.goodsRow(p, false, i),
      p.reserved ? h("div", { class: "small" }, t("Reserved: "),
        h("span", { class: "ench-chip", dataset: { detail: `ench:${p.reserved}` } },
          (this.cat.enchantments[p.reserved] || { name: p.reserved }).name)) : null,
      p.scored.length ? h("div", { class: "small" }, t("Scored: "), p.scored.map((f) =>
        h("span", { class: "ench-chip", dataset: { detail: `fancy:${f}` } },
          (this.cat.fancies[f] || { name: f }).name))) : null,
      p.companion ? h("div", { class: "small" }, t("Companion: "),
        h("span", { class: "ench-chip", dataset: { detail: `companion:${p.companion}` },
          tabindex: 0 }, (this.cat.companions[p.companion] || { name: p.companion }).name))
        : null))));
  }

  readOnlySeat() {
    if (this.opts.readOnly && !this.opts.seatView) return null;
    const seat = this.msg.seat;
    return seat === undefined ? null : seat;
  }

  drawLegal() {
    if (!this.myTurn) return null;
    return h("details", { class: "legal", open: true },
      h("summary", {}, t("All choices ({n}) — or press its number", { n: this.legal.length })),
      h("ol", {}, this.legal.map((a, i) => h("li", {}, h("button", {
        class: `legal-item${isDecline(a) ? " decline" : ""}`, disabled: this.busy,
        dataset: { focus: `l${a.index}`, ...(a.detail ? { detail: a.detail } : {}) },
        onclick: () => this.send(a.index) }, h("span", { class: "num" }, `${i + 1}`),
      " ", withIcons(shownText(a)),
      a.facts ? h("span", { class: "facts" }, " ", withIcons(a.facts)) : null)))));
  }

  drawLog() {
    const lines = this.msg.log || [];
    const names = this.msg.view.players.map((p) => p.name);
    // the newest lines first; a long game's whole log only on request (it is redrawn often)
    const shown = this.wholeLog ? lines : lines.slice(-LOG_LINES);
    return h("section", { class: "log", "aria-label": t("Game log") },
      h("h2", {}, t("Log "), h("span", { class: "muted small" }, t("newest first"))),
      h("ol", { class: "log-lines", tabindex: 0 }, shown.slice().reverse().map((line) => h("li", {},
        h("span", { class: "muted" }, line.turn ? t("T{n} ", { n: line.turn }) : t("Setup ")),
        line.player !== undefined && line.player !== null && names[line.player]
          ? h("strong", {}, `${names[line.player]}: `) : null, withIcons(line.text)))),
      lines.length > shown.length ? h("button", { class: "link small", dataset: { focus: "log-all" },
        onclick: () => { this.wholeLog = true; this.render(); } },
      t("Show all {n} lines", { n: lines.length })) : null);
  }

  drawScores(view) {
    const sources = Object.keys(SOURCE_LABELS).filter((s) =>
      view.players.some((p) => p.reputation_sources && p.reputation_sources[s]));
    const winners = new Set(view.winners || []);
    return h("section", { class: "scores", "aria-label": t("Final scores") },
      h("h2", {}, t("Final scores")),
      h("div", { class: "table-wrap" }, h("table", {},
        h("thead", {}, h("tr", {}, h("td", {}, ""), view.players.map((p, i) =>
          h("th", { scope: "col" }, `${SEAT_MARKS[i]} ${p.name}`, winners.has(i) ? " ★" : "")))),
        h("tbody", {},
          sources.map((s) => h("tr", {}, h("th", { scope: "row" }, t(SOURCE_LABELS[s])),
            view.players.map((p) => h("td", {}, String((p.reputation_sources || {})[s] || 0))))),
          h("tr", { class: "total" }, h("th", { scope: "row" }, t("Total Reputation")),
            view.players.map((p) => h("td", {}, String(p.reputation)))),
          h("tr", {}, h("th", { scope: "row" }, t("Dragons in hand (tie-break)")),
            view.players.map((p) => h("td", {}, String(p.hand_count)))),
          h("tr", {}, h("th", { scope: "row" }, t("Goods left (tie-break)")),
            view.players.map((p) => h("td", {}, String(GOODS.reduce((n, g) =>
              n + (p.goods[g] || 0), 0)))))))),
      h("p", { class: "muted small" },
        t("★ winner. Ties: most dragons in hand, then most Goods.")),
      this.standInLines());
  }

  /** Which turns a bot played for whom (the seats' spans, server/standins.py). */
  standInLines() {
    const lines = [];
    (this.msg.seats || []).forEach((seat) => (seat.spans || []).forEach((span) => {
      const from = turnName(span.turn);
      const to = span.until === null || span.until === undefined ? null : turnName(span.until);
      const because = { timeout: t("out of time"), away: t("away"),
        voted: t("the others asked for it") }[span.why] || span.why;
      lines.push(span.why === "conceded"
        ? t("{name} conceded: a bot played for them from {from} to the end.", { name: seat.name, from })
        : span.why === "timeout" || span.why === "away"
          ? (to === null ? t("A bot played for {name} from {from} to the end ({why}).",
            { name: seat.name, from, why: because })
            : t("A bot played for {name} from {from} to {to} ({why}).",
              { name: seat.name, from, to, why: because }))
          : span.until === null || span.until === undefined
          ? t("A bot played for {name} from {from} to the end (the others asked for it).",
            { name: seat.name, from })
          : t("A bot played for {name} from {from} to {to} (the others asked for it).",
            { name: seat.name, from, to: turnName(span.until) }));
    }));
    return lines.length ? h("ul", { class: "stand-ins small" }, lines.map((l) => h("li", {}, l)))
      : null;
  }

  /** "Concede", on your turn: a first click asks, a second one concedes (a bot plays the
   * seat out; server/standins.py). */
  concedeButton(view) {
    const me = this.opts.readOnly ? null : this.mySeatRow();
    if (!me || !this.opts.seatApi || view.over || this.msg.status !== "running") return null;
    // one person against bots: nobody waits, so the game can simply be abandoned, any time
    const alone = (this.msg.seats || []).filter((s) => s.kind === "human").length === 1;
    if (alone) {
      if (this.concedeAsked !== this.msg.version) {
        return h("button", { class: "link concede abandon", dataset: { focus: "concede" },
          title: t("End this game here, with no winner (it is kept, with its replay)"),
          onclick: () => { this.concedeAsked = this.msg.version; this.render(); } },
        t("Abandon"));
      }
      return h("span", { class: "concede-ask" }, t("Abandon this game? It ends here, with no winner."),
        " ", h("button", { class: "link concede-yes", dataset: { focus: "concede-yes" },
          onclick: () => this.seatChange("abandon") }, t("Yes, abandon")),
        " ", h("button", { class: "link", onclick: () => { this.concedeAsked = null; this.render(); } },
          t("No")));
    }
    if (me.stand_in || !this.myTurn) return null;
    if (this.concedeAsked !== this.msg.version) {
      return h("button", { class: "link concede", dataset: { focus: "concede" },
        title: t("Give up this game: a bot plays your seat to the end"),
        onclick: () => { this.concedeAsked = this.msg.version; this.render(); } }, t("Concede"));
    }
    return h("span", { class: "concede-ask" }, t("Concede? A bot plays your seat to the end."),
      " ", h("button", { class: "link concede-yes", dataset: { focus: "concede-yes" },
        onclick: () => this.seatChange("concede") }, t("Yes, concede")),
      " ", h("button", { class: "link", onclick: () => { this.concedeAsked = null; this.render(); } },
        t("No")));
  }

  /** This seat's row (stand-in, votes…), or null for a spectator. */
  mySeatRow() {
    const seat = this.msg.seat;
    return seat === null || seat === undefined || !this.msg.seats ? null : this.msg.seats[seat];
  }

  /** Asks the server for a seat change (vote, concede, reclaim) with this seat's key. */
  async seatChange(path, body = {}) {
    try {
      await this.opts.seatApi(path, body);
    } catch (err) {
      this.setNotice(err.message, "error");
    }
  }

  /** A person's seat in another's list: a bot playing for them, or a vote for one when they
   * are away (every other person still playing must ask). */
  standInBits(i) {
    const row = (this.msg.seats || [])[i];
    if (!row || row.kind !== "human") return null;
    if (row.stand_in) {
      return h("span", { class: "tag stand-in", title: row.conceded
        ? t("{name} conceded: a bot plays their seat to the end", { name: row.name })
        : t("A bot plays for {name} until they take their seat back", { name: row.name }) },
      row.conceded ? t("conceded · bot") : t("bot for now"));
    }
    const me = this.mySeatRow();
    const p = this.presence && this.presence.seats.find((s) => s.seat === i);
    const voters = (this.msg.seats || []).filter((s, k) => k !== i && s.kind === "human"
      && !s.stand_in).length;
    const votes = (row.votes || []).length;
    if (!me || me.stand_in || !this.opts.seatApi || this.opts.readOnly || this.msg.status !== "running"
      || ((!p || p.status !== "away") && !votes && this.timeLeftOf(i) !== 0)) return null;
    const mine = (row.votes || []).includes(this.msg.seat);
    return h("span", { class: "vote" },
      mine ? h("span", { class: "small" }, t("you asked for a bot ({n} of {m})", { n: votes, m: voters }))
        : h("button", { class: "link vote-button", title: t("When every other person asks, a bot plays {name}'s seat until they take it back", { name: row.name }),
          onclick: () => this.seatChange("vote", { target: i }) },
        votes ? t("Let a bot play ({n} of {m} asked)", { n: votes, m: voters })
          : t("Let a bot play")));
  }
}

/** An action's text as this page reads it: ``say`` (the text in the page's language, sent
 * when it is not English), else its stable text. */
export function shownText(action) {
  return action.say || action.text;
}

/** An action as a person reads it: its text and its facts (core/describe.py). */
export function labelOf(action) {
  return action.facts ? `${shownText(action)} ${action.facts}` : shownText(action);
}

/** The first parts ("; "-separated) of two or more choices' texts that they all share and
 * that leave each something of its own ("" if none): "Use Change of Roost — …; send Suzette
 * to the bottom of the deck" and "…; stop sending dragons" share "Use Change of Roost — …". */
/** A turn as the scores name it (turn 0 is the game's first round, "the start"). */
function turnName(turn) {
  return turn ? t("turn {n}", { n: turn }) : t("the start");
}

/** How long someone has been away, said short ("" under a minute: just "away"). */
function awayTime(secs) {
  if (secs < 60) return "";
  if (secs < 3600) return t("{n} min", { n: Math.floor(secs / 60) });
  if (secs < 86400) return t("{n} h", { n: Math.floor(secs / 3600) });
  return t("{n} d", { n: Math.floor(secs / 86400) });
}

function sharedLead(actions) {
  if (actions.length < 2) return "";
  const parts = actions.map((a) => shownText(a).split("; "));
  let n = 0;
  while (parts.every((p) => p.length > n + 1 && p[n] === parts[0][n])) n += 1;
  return parts[0].slice(0, n).join("; ");
}

function isDecline(action) {
  return action.kind === "skip" || action.kind === "end_turn";
}

function capital(text) {
  return text ? text[0].toUpperCase() + text.slice(1) : text;
}

/** What a clickable thing does, for the mouse (its title) and for screen readers: a thing with
 * visible text keeps that text as its accessible name (a Good is "Bread 2", not "10 choices":
 * the name includes what is seen), and what it does becomes its description (the title); a
 * thing without text is named by what it does. */
function nameAndChoices(el, label) {
  el.title = label;
  if ((el.textContent || "").trim()) el.removeAttribute("aria-label");
  else el.setAttribute("aria-label", label);
}

/** The Goods and Coins each seat gained between two views, with the Shop it stands at (where
 * they fly from); none when the seats differ (another game). */
function gains(was, now) {
  if (!was || !now || was.players.length !== now.players.length) return [];
  const out = [];
  now.players.forEach((p, i) => {
    const q = was.players[i];
    if (!p.position) return;
    for (const g of [...GOODS, "COIN"]) {
      const n = g === "COIN" ? p.coins - q.coins : (p.goods[g] || 0) - (q.goods[g] || 0);
      if (n > 0) out.push({ player: i, good: g, n, shop: p.position });
    }
  });
  return out;
}
