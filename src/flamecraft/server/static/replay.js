// Replaying a finished game step by step: the server gives the view after any number of
// actions — a spectator's (GET /api/games/{id}/replay/{step}), or, with a seat's key, that
// seat's own (POST, the key in the body: its hand and Fancy Dragons as they were, never
// another seat's); this draws it read-only with first / previous turn / previous / slider /
// next / next turn / last controls, and the keys ← → (a step), Page Up / Page Down (a
// turn), Home / End.

import { ChatPanel } from "./chat.js";
import { api, h } from "./dom.js";
import { withIcons } from "./cards.js";
import { t } from "./i18n.js";
import { Table } from "./table.js";

export async function showReplay(root, cat, info, seat = null, token = null) {
  const gameId = info.game_id;
  const key = seat !== null && token ? `#${new URLSearchParams({ seat, token })}` : "";
  let turnSteps = [0];
  let step = 0;
  let steps = 0;
  let loading = false;
  const cache = new Map();
  let chat = null; // the table chat (chat.js), read only
  let current = null; // the step's answer: its view, log, lines of this step and actor
  const table = new Table(root, cat, {
    readOnly: true,
    seatView: Boolean(key),
    title: info.name || "",
    replayLabel: t("Replay"),
    extraTop: () => controls(),
    stepLines: () => (current ? current.step_lines || 0 : 0),
    stepText: () => stepText(),
  });

  /** What happened at this step, as the table read it (its lines of the public log). */
  function stepText() {
    if (!current || !current.step) {
      return t("The start of the game: the deal, before anyone chose.");
    }
    const names = current.view.players.map((p) => p.name);
    const who = names[current.actor] || t("Seat {n}", { n: current.actor + 1 });
    const n = current.step_lines || 0;
    const lines = n ? current.log.slice(current.log.length - n) : [];
    const own = lines.filter((l) => l.player === current.actor).map((l) => l.text);
    const rest = lines.filter((l) => l.player !== current.actor)
      .map((l) => `${names[l.player] || "?"}: ${l.text}`);
    const said = [...own, ...rest].join(t("; "));
    return [t("Step {n}: ", { n: current.step }), h("span", { class: "who" }, who), said
      ? [" — ", withIcons(said)]
      : t(" made a choice that changes nothing on the table (a decline).")];
  }

  /** The step at which the turn after this step's begins (the last step at the end). */
  function turnAfter() {
    return turnSteps.find((k) => k > step) ?? steps;
  }

  /** The step at which this step's turn began, or the turn before's if it is there. */
  function turnBefore() {
    const before = turnSteps.filter((k) => k < step);
    return before.length ? before[before.length - 1] : 0;
  }

  async function go(target) {
    if (loading) return;
    const k = Math.max(0, Math.min(steps || target, target));
    loading = true;
    try {
      let data = cache.get(k);
      if (!data) {
        data = key ? await api("POST", `/api/games/${gameId}/replay/${k}`, { seat, token })
          : await api("GET", `/api/games/${gameId}/replay/${k}`);
        cache.set(k, data);
      }
      step = data.step;
      steps = data.steps;
      turnSteps = data.turn_steps || [0];
      current = data;
      if (chat) chat.setStep(step);
      table.update({ type: "state", version: step, seat: data.seat ?? null, view: data.view,
        legal: [],
        log: data.log || [], choosing: data.choosing || "", can_undo: false,
        status: "finished" });
    } catch (err) {
      table.setNotice(t("That step could not be loaded: {error}", { error: err.message }),
        "error");
    } finally {
      loading = false;
    }
  }

  /** A button's text with its arrow ("« First", "Last »") drawn by the style sheet (a
   * ::before or ::after of data-arrow), not as text: the accessible name (its aria-label,
   * "First step") then includes all the visible text, as axe's label-content-name-mismatch
   * wants (an aria-hidden span would still count as visible text). */
  function arrowed(text) {
    const m = /^([«»]\s*)?(.*?)(\s*[«»])?$/u.exec(text);
    return [m[1] ? h("span", { class: "arrow before", dataset: { arrow: m[1].trim() } }) : null,
      m[2], m[3] ? h("span", { class: "arrow after", dataset: { arrow: m[3].trim() } }) : null];
  }

  function controls() {
    const slider = h("input", { type: "range", min: 0, max: steps, value: step,
      "aria-label": t("Replay step"), dataset: { focus: "replay-slider" },
      onchange: (e) => go(Number(e.target.value)) });
    return h("nav", { class: "replay-controls", "aria-label": t("Replay controls") },
      h("button", { onclick: () => go(0), disabled: step === 0, dataset: { focus: "r-first" },
        "aria-label": t("First step") }, arrowed(t("« First"))),
      h("button", { onclick: () => go(turnBefore()), disabled: step === 0,
        dataset: { focus: "r-prev-turn" }, "aria-label": t("Previous turn") },
      t("◀ Turn")),
      h("button", { onclick: () => go(step - 1), disabled: step === 0,
        dataset: { focus: "r-prev" }, "aria-label": t("Previous step") }, t("◀ Prev")),
      slider,
      h("button", { onclick: () => go(step + 1), disabled: step >= steps,
        dataset: { focus: "r-next" }, "aria-label": t("Next step") }, t("Next ▶")),
      h("button", { onclick: () => go(turnAfter()), disabled: step >= steps,
        dataset: { focus: "r-next-turn" }, "aria-label": t("Next turn") }, t("Turn ▶")),
      h("button", { onclick: () => go(steps), disabled: step >= steps,
        dataset: { focus: "r-last" }, "aria-label": t("Last step") }, arrowed(t("Last »"))),
      h("span", { class: "replay-step", "aria-live": "polite" },
        t("Step {n} of {steps}", { n: step, steps })),
      h("a", { class: "button", href: `/play/${gameId}${key}` }, t("Final table")),
      h("a", { class: "button", href: "/" }, t("Lobby")));
  }

  document.addEventListener("keydown", (e) => {
    if (!root.isConnected || e.target.tagName === "INPUT") return;
    if (e.key === "ArrowRight") go(step + 1);
    else if (e.key === "ArrowLeft") go(step - 1);
    else if (e.key === "PageDown") go(turnAfter());
    else if (e.key === "PageUp") go(turnBefore());
    else if (e.key === "Home") go(0);
    else if (e.key === "End") go(steps);
    else return;
    e.preventDefault();
  });
  // the table chat, each line at the step it was said (GET /api/games/{id}/chat)
  try {
    const lines = [];
    for (let after = -1, pages = 0; after !== null && pages < 200; pages += 1) {
      const said = await api("GET", `/api/games/${gameId}/chat?after=${after}`);
      lines.push(...(said.lines || []));
      after = said.next ?? null; // a page at a time (server/chat.py CHAT_PAGE lines)
    }
    chat = new ChatPanel({ gameId, seat, replay: true });
    chat.setSeats(info.seats);
    chat.receive({ type: "chat", lines, history: true });
    chat.setStep(step);
    document.body.appendChild(chat.el);
  } catch {
    chat = null; // no chat: the replay goes on without it
  }
  await go(0);
}
