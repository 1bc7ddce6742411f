// Tiny DOM helpers. Everything the page shows is built with textContent, never innerHTML,
// so a player's name or a server message can never inject markup.

import { LANGUAGES, language, setLanguage, t } from "./i18n.js";

/** Builds an element: h("div", {class: "x", onclick: f}, "text", child, [more, children]). */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") el.className = value;
    else if (key === "dataset") Object.assign(el.dataset, value);
    else if (key.startsWith("on") && typeof value === "function") {
      el.addEventListener(key.slice(2), value);
    } else if (key === "style" && typeof value === "object") Object.assign(el.style, value);
    else if (value === true) el.setAttribute(key, "");
    else el.setAttribute(key, String(value));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children) {
    if (child === undefined || child === null || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else if (child instanceof Node) el.appendChild(child);
    else el.appendChild(document.createTextNode(String(child)));
  }
}

/** Replaces all children of an element. */
export function fill(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

// The signed-in session's CSRF token (account.js, from GET /api/me): every request made
// with the session cookie carries it, or the server refuses a change (server/sessions.py).
let csrf = null;

export function setCsrf(token) {
  csrf = token || null;
}

/** Fetches JSON; throws an Error whose message is the server's one clear sentence. */
export async function api(method, path, body) {
  // the server answers in the page's language (its error messages, and the texts it builds)
  const init = { method, headers: { "Accept-Language": language() } };
  if (csrf) init.headers["X-Flamecraft-CSRF"] = csrf;
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch {
    throw new Error(t("The server cannot be reached. Check your connection and try again."));
  }
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) {
    const detail = data && (data.message || data.detail);
    const text = typeof detail === "string" ? detail
      : Array.isArray(detail) ? detail.map((d) => d.msg || String(d)).join("; ")
      : t("The server answered {status}.", { status: response.status });
    throw new Error(text);
  }
  return data;
}

/** Copies text to the clipboard, falling back silently where the API is not available. */
export async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

/** The EN / 日本語 switch (the lobby's and the table's top bar): the chosen language is
 * pressed; the other reloads the page in it. */
export function languageSwitch() {
  return h("span", { class: "lang-switch", role: "group", "aria-label": t("Language") },
    LANGUAGES.map(([code, name]) => h("button", {
      type: "button", class: "link lang", lang: code, "aria-pressed": String(code === language()),
      dataset: { lang: code },
      onclick: () => { if (code !== language()) setLanguage(code); } }, name)));
}

/** The page's one level-1 heading: the game's name, a link to the lobby (in every top bar). */
export function brand() {
  return h("h1", { class: "brand-h" }, h("a", { class: "brand", href: "/" }, "Flamecraft"));
}
