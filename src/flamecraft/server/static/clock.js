/**
 * A game's clock in words (server/clocks.py): its setting as the lobby lists it, and a time
 * left as a seat's heading shows it. The server keeps the time; the page only displays it.
 */
import { t } from "./i18n.js";

/** A span of seconds, said short: "45 s", "10 min", "1 h 30 min", "2 d". */
export function span(secs) {
  const s = Math.max(0, Math.round(secs));
  if (s < 60) return t("{n} s", { n: s });
  if (s < 3600) {
    const rest = s % 60;
    return rest ? t("{m} min {s} s", { m: Math.floor(s / 60), s: rest })
      : t("{n} min", { n: s / 60 });
  }
  if (s < 86400) {
    const minutes = Math.floor((s % 3600) / 60);
    return minutes ? t("{h} h {m} min", { h: Math.floor(s / 3600), m: minutes })
      : t("{n} h", { n: Math.floor(s / 3600) });
  }
  return t("{n} d", { n: Math.round(s / 86400) });
}

/** The clock a game was created with, in a few words ("" for none). */
export function clockLabel(clock) {
  if (!clock || clock.kind === "none") return "";
  if (clock.kind === "realtime") {
    return clock.increment
      ? t("Real-time: {bank} + {inc} a turn", { bank: span(clock.bank), inc: span(clock.increment) })
      : t("Real-time: {bank}", { bank: span(clock.bank) });
  }
  return t("Turn-based: {time} a turn", { time: span(clock.per_move) });
}

/** Seconds as a clock reads them: "0:07", "12:34", "1:02:03". */
export function clockTime(secs) {
  const s = Math.max(0, Math.floor(secs));
  const two = (n) => String(n).padStart(2, "0");
  const hours = Math.floor(s / 3600);
  const minutes = Math.floor((s % 3600) / 60);
  return hours ? `${hours}:${two(minutes)}:${two(s % 60)}` : `${minutes}:${two(s % 60)}`;
}

/** Time left as a clock reads it: "9:05" under an hour, then "3 h 20 min", "2 d". */
export function timeLeft(secs) {
  const s = Math.max(0, Math.floor(secs));
  return s >= 3600 ? span(s) : clockTime(s);
}

/** The choices of the create form: value → the clock sent (null: none). */
export const CLOCK_PRESETS = [
  ["none", null],
  ["rt5", { kind: "realtime", bank: 300, increment: 5 }],
  ["rt10", { kind: "realtime", bank: 600, increment: 10 }],
  ["rt20", { kind: "realtime", bank: 1200, increment: 20 }],
  ["tb12h", { kind: "turn", per_move: 12 * 3600 }],
  ["tb1d", { kind: "turn", per_move: 86400 }],
  ["tb3d", { kind: "turn", per_move: 3 * 86400 }],
];
