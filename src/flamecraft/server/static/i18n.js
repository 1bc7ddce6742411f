// The page's language: English or Japanese. Every text the page shows is written in English
// inside t("…") or N_("…") so that Babel extracts it into the "web" catalogue
// (src/flamecraft/locale/*/LC_MESSAGES/web.po); the server hands the compiled catalogue to the
// page as JSON (GET /api/i18n/{lang}), never a hand-kept copy. Placeholders are {name}.
//
// The language is the one chosen with the EN / 日本語 switch (kept in localStorage), else
// the browser's (navigator.languages: ja* is Japanese). The page tells the server too: the
// Accept-Language header of its requests and ?lang= on the WebSocket (docs/server.md).
// English plurals are two msgids chosen in the code ("{n} Coin" / "{n} Coins"), as in the
// Python code (docs/i18n.md).

const KEY = "flamecraft-lang";
export const LANGUAGES = [["en", "EN"], ["ja", "日本語"]];

let current = "en";
let messages = {};

/** The language this browser asked for: the switch's, else the browser's own. */
export function chosenLanguage() {
  try {
    const kept = localStorage.getItem(KEY);
    if (LANGUAGES.some(([code]) => code === kept)) return kept;
  } catch {
    // private mode: no choice was kept
  }
  const wanted = navigator.languages && navigator.languages.length ? navigator.languages
    : [navigator.language || "en"];
  for (const tag of wanted) {
    const base = String(tag).toLowerCase().split("-")[0];
    if (base === "ja") return "ja";
    if (base === "en") return "en";
  }
  return "en";
}

/** The page's language now ("en" or "ja"). */
export function language() {
  return current;
}

/** Loads the catalogue of the chosen language (before anything is drawn) and marks the page
 * with it (<html lang>). English needs none: its texts are the msgids themselves. */
export async function loadLanguage() {
  const lang = chosenLanguage();
  current = "en";
  if (lang !== "en") {
    try {
      const response = await fetch(`/api/i18n/${lang}`);
      if (response.ok) {
        const data = await response.json();
        messages = data.messages || {};
        current = lang;
      }
    } catch {
      // the server cannot be reached: English, and the page says why in a moment
    }
  }
  document.documentElement.lang = current;
}

/** Switches the language: remembered in this browser, and the page is drawn again in it
 * (a reload keeps the seat: its key rides in the fragment). */
export function setLanguage(lang) {
  try {
    localStorage.setItem(KEY, lang);
  } catch {
    // private mode: the choice lasts for this page
  }
  location.reload();
}

function fill(text, params) {
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (whole, name) =>
    (Object.prototype.hasOwnProperty.call(params, name) ? String(params[name]) : whole));
}

/** The text in the page's language, its {placeholders} filled from params. */
export function t(msgid, params) {
  const found = messages[msgid];
  return fill(typeof found === "string" && found ? found : msgid, params);
}

/** Marks a text for extraction where it is defined (a table of texts made before the
 * catalogue is loaded); t() translates it where it is shown. */
export function N_(msgid) {
  return msgid;
}
