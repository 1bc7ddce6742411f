// The table chat (docs/web-client.md, "Table chat"; the protocol in docs/server.md): a
// panel folded into a button at the bottom right of the table (its unread count on it), so
// the table's first screen is the same with or without it. Every line is text, never markup
// (textContent through h()), whatever was typed. Canned phrases travel as their id, so each
// reader sees them in their own language; free text is shown as typed. A reader may mute a
// seat (or the spectators): kept in this browser, per game. In a replay the panel shows the
// lines said up to the step shown (each line keeps the number of actions when it was said).

import { h, fill } from "./dom.js";
import { N_, language, t } from "./i18n.js";

// The same ids and English words as the server's (server/chat.py CANNED).
export const CANNED = [
  ["hello", N_("Hello")],
  ["gg", N_("Good game")],
  ["wp", N_("Well played")],
  ["thinking", N_("Thinking…")],
  ["moment", N_("Sorry, one moment")],
];
const CANNED_TEXT = new Map(CANNED);
const MAX_CHARS = 200;
const SPECTATORS = "s"; // the mute key of every spectator's lines
let panels = 0;

export class ChatPanel {
  /**
   * @param {{gameId: string, seat: number|null, canWrite?: boolean,
   *          send?: (msg: object) => boolean, replay?: boolean}} opts
   *   canWrite: this reader may write (a seat; a spectator where the host allowed it);
   *   replay: read only, the lines up to setStep's step
   */
  constructor(opts) {
    this.opts = opts;
    this.lines = new Map(); // seq -> line
    this.seats = []; // [{seat, name, kind}] from the state messages
    this.open = false;
    this.unread = 0;
    this.step = null; // a replay's step shown
    this.muted = new Set(this.loadMuted());
    this.id = `chat-${++panels}`;
    this.build();
  }

  get key() {
    return `flamecraft-chat-muted:${this.opts.gameId}`;
  }

  loadMuted() {
    try {
      const kept = JSON.parse(localStorage.getItem(this.key) || "[]");
      return Array.isArray(kept) ? kept.map(String) : [];
    } catch {
      return [];
    }
  }

  saveMuted() {
    try {
      localStorage.setItem(this.key, JSON.stringify([...this.muted]));
    } catch {
      // private mode: the choice lasts for this page
    }
  }

  build() {
    const write = this.opts.canWrite && !this.opts.replay;
    this.badge = h("span", { class: "chat-unread", "aria-live": "polite" });
    this.toggle = h("button", { type: "button", class: "chat-toggle",
      "aria-expanded": "false", "aria-controls": this.id,
      onclick: () => this.setOpen(!this.open) }, t("Chat"), " ", this.badge);
    this.list = h("div", { class: "chat-lines", role: "log", "aria-live": "polite",
      "aria-label": t("Chat messages") });
    this.mutes = h("div", { class: "chat-mutes", role: "group",
      "aria-label": t("Mute a seat's messages") });
    this.status = h("p", { class: "chat-status", role: "status" });
    this.input = write ? h("input", { id: `${this.id}-input`, class: "chat-input",
      type: "text", maxlength: MAX_CHARS, autocomplete: "off", enterkeyhint: "send" }) : null;
    const form = write ? h("form", { class: "chat-form", onsubmit: (e) => {
      e.preventDefault();
      this.sendText();
    } },
    h("label", { for: `${this.id}-input`, class: "visually-hidden" }, t("Chat message")),
    this.input,
    h("button", { type: "submit" }, t("Send"))) : null;
    const canned = write ? h("div", { class: "chat-canned", role: "group",
      "aria-label": t("Quick phrases") },
    CANNED.map(([id, words]) => h("button", { type: "button", dataset: { canned: id },
      onclick: () => this.say({ type: "chat", canned: id }) }, t(words)))) : null;
    this.panel = h("div", { class: "chat-panel", id: this.id, hidden: true },
      h("div", { class: "chat-head" },
        h("h2", {}, t("Table chat")),
        h("button", { type: "button", class: "link chat-close", "aria-label": t("Close the chat"),
          onclick: () => this.setOpen(false, true) }, "✕")),
      this.list,
      canned, form,
      write || this.opts.replay ? null
        : h("p", { class: "muted small" }, t("Spectators may read the chat but not write in this game.")),
      this.status, this.mutes);
    this.el = h("aside", { class: "chat", "aria-label": t("Table chat"),
      // the table's shortcut keys (digits choose, Escape) are not the chat's
      onkeydown: (e) => {
        if (e.key === "Escape" && this.open) {
          e.preventDefault();
          this.setOpen(false, true);
        }
        e.stopPropagation();
      } },
    this.panel, this.toggle);
    this.drawLines();
  }

  setOpen(open, refocus = false) {
    this.open = open;
    this.panel.hidden = !open;
    this.toggle.setAttribute("aria-expanded", String(open));
    this.el.dataset.open = open ? "1" : "0";
    if (open) {
      this.markRead();
      this.list.scrollTop = this.list.scrollHeight;
      (this.input || this.panel.querySelector("button")).focus();
    } else if (refocus) {
      this.toggle.focus();
    }
  }

  markRead() {
    this.unread = 0;
    this.paintBadge();
  }

  paintBadge() {
    if (this.opts.replay) {
      const n = this.visible().length;
      fill(this.badge, n ? t("({n})", { n }) : "");
      this.toggle.setAttribute("aria-label", t("Chat: {n} messages so far", { n }));
      return;
    }
    fill(this.badge, this.unread ? t("({n} new)", { n: this.unread }) : "");
  }

  /** The seats of the state messages: names for the mute buttons. */
  setSeats(seats) {
    const was = JSON.stringify(this.seats);
    this.seats = (seats || []).map((s) => ({ seat: s.seat, name: s.name, kind: s.kind }));
    if (JSON.stringify(this.seats) !== was) this.drawMutes();
  }

  /** A replay's step: the lines said up to it are shown. */
  setStep(step) {
    this.step = step;
    this.drawLines();
  }

  muteKey(line) {
    return line.seat === null || line.seat === undefined ? SPECTATORS : String(line.seat);
  }

  drawMutes() {
    const buttons = [];
    for (const s of this.seats) {
      if (s.kind !== "human" || s.seat === this.opts.seat) continue;
      buttons.push(this.muteButton(String(s.seat), t("Mute {name}", { name: s.name })));
    }
    const spectatorsWrite = [...this.lines.values()].some((l) => this.muteKey(l) === SPECTATORS);
    if (spectatorsWrite || this.muted.has(SPECTATORS)) {
      buttons.push(this.muteButton(SPECTATORS, t("Mute spectators")));
    }
    fill(this.mutes, buttons.length ? [h("span", { class: "muted small" }, t("Mute:")), " ",
      buttons] : null);
  }

  muteButton(key, label) {
    const on = this.muted.has(key);
    return h("button", { type: "button", class: "chat-mute", "aria-pressed": String(on),
      dataset: { mute: key }, onclick: () => {
        if (this.muted.has(key)) this.muted.delete(key);
        else this.muted.add(key);
        this.saveMuted();
        this.drawLines();
        this.drawMutes();
        const again = this.mutes.querySelector(`[data-mute="${key}"]`);
        if (again) again.focus({ preventScroll: true });
      } }, label);
  }

  /** A "chat" message: its lines merged in by seq (a reconnection's history again is no
   * news); each new one shown, counted unread while the panel is folded. */
  receive(msg) {
    const before = this.lines.size ? Math.max(...this.lines.keys()) : -1;
    const fresh = [];
    for (const line of msg.lines || []) {
      if (typeof line.seq !== "number" || this.lines.has(line.seq)) continue;
      this.lines.set(line.seq, line);
      fresh.push(line);
    }
    const initial = !this.received;
    this.received = true;
    if (!fresh.length) {
      if (initial) this.drawLines();
      return;
    }
    fresh.sort((a, b) => a.seq - b.seq);
    if (initial && msg.history) {
      this.markRead(); // what was said before this page opened is not news
    } else if (this.open) {
      this.markRead();
    } else {
      this.unread += fresh.filter((l) => !this.muted.has(this.muteKey(l))
        && !(this.opts.seat !== null && l.seat === this.opts.seat)).length;
    }
    if (!initial && !this.opts.replay && fresh[0].seq > before) {
      for (const line of fresh) {
        if (!this.muted.has(this.muteKey(line))) this.list.appendChild(this.lineEl(line));
      }
    } else {
      this.drawLines();
    }
    if (this.open) this.list.scrollTop = this.list.scrollHeight;
    this.drawMutes();
    this.paintBadge();
  }

  /** The lines shown now: not muted, and in a replay said by the step shown. */
  visible() {
    return [...this.lines.values()].sort((a, b) => a.seq - b.seq)
      .filter((l) => !this.muted.has(this.muteKey(l)))
      .filter((l) => this.step === null || l.step <= this.step);
  }

  drawLines() {
    const shown = this.visible();
    fill(this.list, shown.length ? shown.map((l) => this.lineEl(l))
      : h("p", { class: "chat-empty muted" }, this.opts.replay ? t("Nothing said yet.")
        : t("No messages yet. Say hello!")));
    this.paintBadge();
  }

  lineEl(line) {
    const empty = this.list.querySelector(".chat-empty");
    if (empty) empty.remove();
    const who = line.name || t("Spectator");
    const words = line.canned && CANNED_TEXT.has(line.canned) ? t(CANNED_TEXT.get(line.canned))
      : String(line.text || "");
    const at = new Date(line.at);
    const time = Number.isNaN(at.getTime()) ? ""
      : at.toLocaleTimeString(language(), { hour: "2-digit", minute: "2-digit" });
    const seatClass = line.seat === null || line.seat === undefined ? "" : ` seat-${line.seat}`;
    return h("p", { class: `chat-line${line.canned ? " canned" : ""}${seatClass}`,
      dataset: { seq: line.seq, seat: this.muteKey(line) } },
    h("span", { class: "chat-who" }, who), h("span", { class: "visually-hidden" }, ": "),
    " ", h("span", { class: "chat-text" }, words), " ",
    time ? h("time", { class: "chat-time muted", datetime: line.at }, time) : null);
  }

  sendText() {
    const text = this.input.value.trim();
    if (!text) return;
    if (this.say({ type: "chat", text })) {
      this.pending = text;
      this.input.value = "";
    }
  }

  say(msg) {
    fill(this.status);
    const ok = this.opts.send && this.opts.send(msg);
    if (!ok) fill(this.status, t("Not connected right now — reconnecting; please try again in a moment."));
    return ok;
  }

  /** A refused line (an error with "chat": true): said in the panel, the text given back. */
  showError(err) {
    if (!this.open) this.setOpen(true);
    fill(this.status, h("span", { class: "error" }, err.message || err.code));
    if (this.input && this.pending && !this.input.value) this.input.value = this.pending;
    this.pending = null;
  }
}
