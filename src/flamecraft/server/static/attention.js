// Nothing missed: the tab's title and icon say when it is your turn ("● Your turn —
// Flamecraft"), so a player in another tab sees it; an optional short sound (off unless
// turned on, remembered in this browser) says it too; and, when the player allows it, a
// browser notification (the Notification API) when the turn comes while this tab is hidden
// (another game's tab, another window). A closed browser hears nothing: that needs push or
// email, which this server does not run (docs/server.md says how a host would add them).

import { t } from "./i18n.js";

const TITLE = "Flamecraft";
const SOUND_KEY = "flamecraft-sound";
const NOTIFY_KEY = "flamecraft-notify";
const FLAME = "M8 1C9 5 13 6 13 10a5 5 0 0 1-10 0c0-2 1-3 2-4 0 2 1 3 2 3C7 6 6 4 8 1z";

function iconHref(mine) {
  // the flame, and on your turn a dot beside it (a data: image: the CSP's img-src allows it)
  const dot = mine ? "<circle cx='12.5' cy='3.5' r='3.5' fill='%231565c0'/>" : "";
  return "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 16 16'%3E"
    + `%3Cpath d='${FLAME}' fill='%23d9480f'/%3E${dot.replace(/</g, "%3C").replace(/>/g, "%3E")}`
    + "%3C/svg%3E";
}

export class Attention {
  constructor(game = "") {
    this.mine = null;
    this.audio = null;
    this.game = game; // the game's name, said in a notification
  }

  /** Whether this browser can show notifications at all. */
  canNotify() {
    return typeof window.Notification === "function";
  }

  notifyOn() {
    try {
      return this.canNotify() && Notification.permission === "granted"
        && localStorage.getItem(NOTIFY_KEY) === "on";
    } catch {
      return false;
    }
  }

  /** Turns notifications on (asking the browser's permission the first time) or off. */
  async toggleNotify() {
    const on = !this.notifyOn();
    if (on && Notification.permission !== "granted") {
      const answer = await Notification.requestPermission();
      if (answer !== "granted") return false;
    }
    try {
      localStorage.setItem(NOTIFY_KEY, on ? "on" : "off");
    } catch {
      // private mode: the choice lasts as long as the page
    }
    return true;
  }

  notify() {
    try {
      const note = new Notification(t("Your turn — Flamecraft"), {
        body: this.game ? t("It is your turn in {game}.", { game: this.game })
          : t("It is your turn."),
        tag: `flamecraft-turn-${location.pathname}`, // one at a time per game
      });
      note.onclick = () => { window.focus(); note.close(); };
    } catch {
      // not allowed here (some browsers want a service worker): the title still says it
    }
  }

  soundOn() {
    try {
      return localStorage.getItem(SOUND_KEY) === "on";
    } catch {
      return false;
    }
  }

  toggleSound() {
    const on = !this.soundOn();
    try {
      localStorage.setItem(SOUND_KEY, on ? "on" : "off");
    } catch {
      // private mode: the choice lasts as long as the page
    }
    if (on) this.beep(); // a click is a user gesture: the browser lets audio start now
  }

  /** Called after every state: changes the title and icon when the turn comes or goes. */
  update(mine) {
    if (mine === this.mine) return;
    const came = mine && this.mine !== null;
    this.mine = mine;
    document.title = mine ? t("● Your turn — Flamecraft") : TITLE;
    let link = document.querySelector("link[rel~='icon']");
    if (!link) {
      link = document.createElement("link");
      link.rel = "icon";
      document.head.appendChild(link);
    }
    link.href = iconHref(mine);
    link.dataset.turn = mine ? "mine" : "";
    if (came && this.soundOn()) this.beep();
    if (came && document.hidden && this.notifyOn()) this.notify();
  }

  beep() {
    try {
      this.audio = this.audio || new AudioContext();
      const ctx = this.audio;
      const osc = ctx.createOscillator();
      const gain = ctx.createGain();
      osc.frequency.value = 660;
      gain.gain.setValueAtTime(0.0001, ctx.currentTime);
      gain.gain.exponentialRampToValueAtTime(0.15, ctx.currentTime + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, ctx.currentTime + 0.35);
      osc.connect(gain).connect(ctx.destination);
      osc.start();
      osc.stop(ctx.currentTime + 0.4);
    } catch {
      // no audio here: the title and icon still say it
    }
  }
}
