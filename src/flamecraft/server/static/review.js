// The review of a finished game (GET /api/games/{id}/review, ai/review.py): each seat's
// biggest mistakes and every seat's win chance over the game, drawn as an SVG chart with DOM
// calls only (no library, no inline style: the colours are classes in style.css).

import { h } from "./dom.js";
import { SEAT_MARKS, withIcons } from "./cards.js";
import { N_, t } from "./i18n.js";

const SVG = "http://www.w3.org/2000/svg";

function svg(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) el.setAttribute(key, String(value));
  for (const child of children) {
    if (child === null || child === undefined) continue;
    el.appendChild(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

// the labels of ai/review.py (lichess's), shown in the page's language
const MISTAKE_WORDS = { inaccuracy: N_("inaccuracy"), mistake: N_("mistake"),
  blunder: N_("blunder") };

const pct = (x) => (x === null || x === undefined ? "?" : `${Math.round(100 * x)}%`);

/** The win-chance chart: one line per seat, turn by turn (each point the chance at the start
 * of a turn, from the true state: the game is over, so everything may be used). */
export function winChart(data) {
  const W = 640;
  const H = 240;
  const left = 44;
  const right = 12;
  const top = 12;
  const bottom = 30;
  const turns = data.turns;
  const lo = turns[0];
  const hi = Math.max(turns[turns.length - 1], lo + 1);
  const x = (t) => left + ((t - lo) / (hi - lo)) * (W - left - right);
  const y = (c) => top + (1 - c) * (H - top - bottom);
  const chart = svg("svg", { class: "win-chart", viewBox: `0 0 ${W} ${H}`, role: "img",
    "aria-label": t("Each seat's chance to win, turn by turn") });
  for (const c of [0, 0.25, 0.5, 0.75, 1]) {
    chart.appendChild(svg("line", { class: "grid", x1: left, x2: W - right, y1: y(c), y2: y(c) }));
    chart.appendChild(svg("text", { class: "axis", x: left - 6, y: y(c) + 4, "text-anchor": "end" },
      `${Math.round(c * 100)}%`));
  }
  const step = Math.max(1, Math.ceil((hi - lo) / 8));
  for (let t = lo; t <= hi; t += step) {
    chart.appendChild(svg("text", { class: "axis", x: x(t), y: H - 10, "text-anchor": "middle" },
      `${t}`));
  }
  chart.appendChild(svg("text", { class: "axis", x: W - right, y: H - 10, "text-anchor": "end" },
    t("turn")));
  data.names.forEach((name, p) => {
    const points = turns.map((t, i) => `${x(t).toFixed(1)},${y(data.chances[i][p]).toFixed(1)}`);
    chart.appendChild(svg("polyline", { class: `seat-line seat-${p}`, points: points.join(" "),
      fill: "none" }, svg("title", {}, t("{name}: {pct} at the end",
      { name, pct: pct(data.chances[turns.length - 1][p]) }))));
  });
  return chart;
}

function mistakeItem(d) {
  return h("li", { class: `mistake ${d.label}` },
    h("div", {}, h("span", { class: `tag ${d.label}` }, t(MISTAKE_WORDS[d.label] || d.label)),
      t(" Turn {n}: chose ", { n: d.turn }),
      h("strong", {}, withIcons(d.chosen)), t(" ({loss} Rep behind the best", { loss: d.loss.toFixed(1) }),
      d.chosen_win === null || d.best_win === null ? ")"
        : pct(d.chosen_win) === pct(d.best_win)  // a lost game's "0% against 0%" says it once
          ? t("; {chosen} to win either way)", { chosen: pct(d.chosen_win) })
          : t("; {chosen} to win against {best})", { chosen: pct(d.chosen_win),
            best: pct(d.best_win) })),
    h("div", { class: "muted" }, t("Better: "), h("strong", {}, withIcons(d.best)), " — ",
      withIcons(d.best_reason)));
}

/** The review panel: loading, an error, or the review itself. */
export function reviewPanel(state, mySeat) {
  const box = h("section", { class: "review", "aria-label": t("Review"),
    "aria-live": "polite" });
  if (state.loading) {
    box.appendChild(h("p", { class: "muted" }, t("Reviewing every decision of the game… (this "
      + "can take up to a minute)")));
    return box;
  }
  if (state.error) {
    box.appendChild(h("p", { class: "error" },
      t("The review could not be made: {error}", { error: state.error })));
    return box;
  }
  const data = state.data;
  box.appendChild(h("h2", {}, t("Review")));
  box.appendChild(h("p", { class: "muted small" }, t("Each decision valued by the hint's planner "
    + "from the deciding seat's view as it was then; the win chances use every card, since the "
    + "game is over. {n} decisions in {secs}s.", { n: data.decisions.length,
    secs: data.seconds })));
  if (data.turns.length > 1) {
    box.appendChild(h("h3", {}, t("Chance to win")));
    box.appendChild(winChart(data));
    box.appendChild(h("ul", { class: "chart-legend" }, data.names.map((name, p) =>
      h("li", {}, h("span", { class: `swatch seat-${p}` }), ` ${SEAT_MARKS[p]} ${name}`))));
  } else {
    box.appendChild(h("p", { class: "muted" },
      t("A solo game has nobody to beat: no win chance.")));
  }
  box.appendChild(h("h3", {}, t("Biggest mistakes")));
  const order = data.names.map((_, p) => p);
  if (mySeat !== null && mySeat !== undefined) order.sort((a, b) => (b === mySeat) - (a === mySeat));
  box.appendChild(h("div", { class: "mistakes" }, order.map((p) => {
    const bad = (data.mistakes || [])[p] || [];
    return h("div", { class: "seat-mistakes" },
      h("h4", {}, `${SEAT_MARKS[p]} ${data.names[p]}`, p === mySeat ? t(" (you)") : "",
        t(" — {n} Rep", { n: data.result[p] })),
      bad.length ? h("ol", {}, bad.map(mistakeItem))
        : h("p", { class: "muted" }, t("No mistakes worth a mention.")));
  })));
  return box;
}
