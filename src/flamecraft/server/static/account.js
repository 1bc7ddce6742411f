// Accounts (optional): sign up and sign in with a passkey, the lobby's "Sign in / Sign up"
// area, a person's profile (games, win rate by player count, rating and its history as a
// plot), export and delete, the leaderboard, and the host's recovery link. Play needs none
// of it: a seat link works for a guest as before. The session is an HttpOnly cookie; every
// change made with it carries the session's CSRF token (dom.js setCsrf), which only
// GET /api/me tells.

import { api, brand, fill, h, languageSwitch, setCsrf } from "./dom.js";
import { t } from "./i18n.js";

let me = { signed_in: false };

/** Who is signed in here (GET /api/me), and the CSRF token the page's changes carry. */
export async function loadMe() {
  try {
    me = await api("GET", "/api/me");
  } catch {
    me = { signed_in: false };
  }
  setCsrf(me.signed_in ? me.csrf : null);
  return me;
}

export function signedIn() {
  return me.signed_in ? me.account : null;
}

function supported() {
  return typeof window.PublicKeyCredential === "function" && Boolean(navigator.credentials);
}

// WebAuthn's JSON forms (base64url for the binary fields): the browser's own
// PublicKeyCredential.parse…FromJSON and credential.toJSON() where it has them (Chrome 129,
// Firefox 119, Safari 18), else the same conversion here.
function fromB64(text) {
  const plain = text.replace(/-/g, "+").replace(/_/g, "/");
  const bytes = atob(plain + "=".repeat((4 - (plain.length % 4)) % 4));
  return Uint8Array.from(bytes, (c) => c.charCodeAt(0)).buffer;
}

function toB64(buffer) {
  if (!buffer) return null;
  let text = "";
  for (const byte of new Uint8Array(buffer)) text += String.fromCharCode(byte);
  return btoa(text).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function creationOptions(options) {
  if (typeof PublicKeyCredential.parseCreationOptionsFromJSON === "function") {
    return PublicKeyCredential.parseCreationOptionsFromJSON(options);
  }
  return { ...options, challenge: fromB64(options.challenge),
    user: { ...options.user, id: fromB64(options.user.id) },
    excludeCredentials: (options.excludeCredentials || []).map((c) => ({ ...c, id: fromB64(c.id) })) };
}

function requestOptions(options) {
  if (typeof PublicKeyCredential.parseRequestOptionsFromJSON === "function") {
    return PublicKeyCredential.parseRequestOptionsFromJSON(options);
  }
  return { ...options, challenge: fromB64(options.challenge),
    allowCredentials: (options.allowCredentials || []).map((c) => ({ ...c, id: fromB64(c.id) })) };
}

function credentialJSON(credential) {
  if (typeof credential.toJSON === "function") return credential.toJSON();
  const r = credential.response;
  const response = r.attestationObject
    ? { clientDataJSON: toB64(r.clientDataJSON), attestationObject: toB64(r.attestationObject),
      transports: typeof r.getTransports === "function" ? r.getTransports() : [] }
    : { clientDataJSON: toB64(r.clientDataJSON), authenticatorData: toB64(r.authenticatorData),
      signature: toB64(r.signature), userHandle: toB64(r.userHandle) };
  return { id: credential.id, rawId: toB64(credential.rawId), type: credential.type, response,
    clientExtensionResults: credential.getClientExtensionResults(),
    authenticatorAttachment: credential.authenticatorAttachment || null };
}

/** A new passkey for these options (the server's JSON), as JSON for the server. */
async function createPasskey(options) {
  const credential = await navigator.credentials.create({ publicKey: creationOptions(options) });
  return credentialJSON(credential);
}

async function usePasskey(options) {
  const credential = await navigator.credentials.get({ publicKey: requestOptions(options) });
  return credentialJSON(credential);
}

function passkeyProblem(err) {
  // the browser's own refusals (cancelled, timed out) say little: one plain sentence
  if (err && (err.name === "NotAllowedError" || err.name === "AbortError")) {
    return t("The passkey was not used (cancelled or timed out).");
  }
  return err && err.message ? err.message : String(err);
}

export async function signUp(name) {
  const opts = await api("POST", "/api/account/signup/options", { name });
  const credential = await createPasskey(opts.options);
  me = await api("POST", "/api/account/signup", { challenge_id: opts.challenge_id, credential });
  setCsrf(me.csrf);
  return me;
}

export async function signIn() {
  const opts = await api("POST", "/api/account/signin/options");
  const credential = await usePasskey(opts.options);
  me = await api("POST", "/api/account/signin", { challenge_id: opts.challenge_id, credential });
  setCsrf(me.csrf);
  return me;
}

/** Binds a seat this person holds a link for to their account ("my games" on any device).
 * Returns the account's own link to it, or null for a guest (or if it cannot be bound). */
export async function bindSeat(gameId, seat, token) {
  if (!me.signed_in || seat === null || !token) return null;
  try {
    const bound = await api("POST", "/api/me/seats", { game_id: gameId, seat: Number(seat), token });
    return bound.seat_link;
  } catch {
    return null;
  }
}

/** The lobby's account area: sign in / sign up, or who is signed in with their games. */
export function accountBox() {
  const box = h("section", { class: "account-box", "aria-label": t("Account") });
  const message = h("div", { class: "form-message", role: "alert" });
  const fail = (err) => fill(message, h("p", { class: "error" }, passkeyProblem(err)));
  if (me.signed_in) {
    const games = h("ul", { class: "account-games" });
    fill(box, h("h2", {}, t("Signed in as {name}", { name: me.account.name })),
      h("p", {}, h("a", { class: "button", href: "/profile" }, t("Profile")), " ",
        h("a", { class: "button", href: "/leaderboard" }, t("Leaderboard")), " ",
        h("button", { type: "button", class: "sign-out", onclick: async () => {
          try {
            await api("POST", "/api/me/signout");
            location.reload();
          } catch (err) { fail(err); }
        } }, t("Sign out"))),
      games, message);
    drawAccountGames(games);
    return box;
  }
  const name = h("input", { id: "account-name", class: "account-name", maxlength: 20,
    autocomplete: "username webauthn" });
  const disabled = !supported();
  fill(box, h("h2", {}, t("Sign in / Sign up")),
    h("p", { class: "muted small" }, t("Optional: an account keeps your games on every device "
      + "and gives you a rating. It uses a passkey, no password.")),
    h("p", {}, h("button", { type: "button", class: "sign-in", disabled,
      onclick: async () => {
        fill(message);
        try {
          await signIn();
          location.reload();
        } catch (err) { fail(err); }
      } }, t("Sign in with a passkey"))),
    h("p", {}, h("label", { for: "account-name" }, t("Name ")), name, " ",
      h("button", { type: "button", class: "sign-up", disabled, onclick: async () => {
        fill(message);
        try {
          await signUp(name.value.trim());
          location.reload();
        } catch (err) { fail(err); }
      } }, t("Sign up"))),
    disabled ? h("p", { class: "muted small" },
      t("This browser cannot use passkeys: play as a guest with seat links.")) : null,
    message);
  return box;
}

async function drawAccountGames(list) {
  try {
    const data = await api("GET", "/api/me/games");
    const live = data.games.filter((g) => g.status !== "finished").slice(0, 10);
    fill(list, live.map((g) => h("li", { class: "account-game", dataset: { game: g.game_id } },
      h("strong", {}, g.name || g.game_id), " ",
      h("span", { class: "muted" }, statusWord(g.status)), " ",
      h("a", { class: "button", href: g.seat_link }, t("Open")))));
  } catch {
    fill(list);
  }
}

function statusWord(status) {
  return { open: t("waiting to start"), running: t("running"), finished: t("finished") }[status]
    || status;
}

function topbar() {
  return h("header", { class: "topbar" }, brand(),
    h("a", { href: "/leaderboard" }, t("Leaderboard")), languageSwitch());
}

function problem(root, err) {
  fill(root, topbar(), h("main", { class: "profile" },
    h("p", { class: "error", role: "alert" }, err.message || String(err)),
    h("p", {}, h("a", { href: "/" }, t("← Back to the lobby")))));
}

const SVG = "http://www.w3.org/2000/svg";

function svg(tag, attrs, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  for (const c of children) el.appendChild(typeof c === "string" ? document.createTextNode(c) : c);
  return el;
}

/** The rating after each rated game, as a line with its uncertainty (an inline SVG). */
function ratingPlot(start, history) {
  const width = 480;
  const height = 160;
  const pad = 36;
  const points = [start, ...history];
  const lows = points.map((p) => p.elo - p.plus_minus);
  const highs = points.map((p) => p.elo + p.plus_minus);
  const lo = Math.min(...lows, -200);
  const hi = Math.max(...highs, 200);
  const x = (i) => pad + (i * (width - 2 * pad)) / Math.max(1, points.length - 1);
  const y = (v) => height - pad / 2 - ((v - lo) * (height - pad)) / (hi - lo);
  const line = points.map((p, i) => `${i ? "L" : "M"}${x(i).toFixed(1)},${y(p.elo).toFixed(1)}`).join("");
  const band = [...points.map((p, i) => `${i ? "L" : "M"}${x(i).toFixed(1)},${y(p.elo + p.plus_minus).toFixed(1)}`),
    ...points.map((p, i) => [i, p]).reverse().map(([i, p]) => `L${x(i).toFixed(1)},${y(p.elo - p.plus_minus).toFixed(1)}`)].join("") + "Z";
  const last = points[points.length - 1];
  return svg("svg", { class: "rating-plot", viewBox: `0 0 ${width} ${height}`, role: "img",
    "aria-label": t("Rating after each rated game: now {elo}", { elo: last.elo }) },
  svg("path", { d: band, fill: "#f3c9a8", stroke: "none" }),
  svg("line", { x1: pad, x2: width - pad, y1: y(0), y2: y(0), stroke: "#8a7a6a", "stroke-dasharray": "4 3" }),
  svg("text", { x: 2, y: y(0) + 4, "font-size": 11, fill: "#4a3f35" }, "0"),
  svg("text", { x: 2, y: y(hi) + 10, "font-size": 11, fill: "#4a3f35" }, String(Math.round(hi))),
  svg("text", { x: 2, y: y(lo), "font-size": 11, fill: "#4a3f35" }, String(Math.round(lo))),
  svg("path", { d: line, fill: "none", stroke: "#b33c00", "stroke-width": 2 }),
  ...points.map((p, i) => svg("circle", { cx: x(i), cy: y(p.elo), r: 3, fill: "#b33c00" })));
}

function percent(x) {
  return `${Math.round(x * 100)}%`;
}

function gameRow(g, own) {
  const place = g.place ? t("place {place} of {players}", { place: g.place, players: g.players }) : "";
  const others = g.seats.filter((_, i) => i !== g.seat).map((s) => s.name).join(t(", "));
  return h("li", { class: "profile-game", dataset: { game: g.game_id } },
    h("strong", {}, g.name || g.game_id), " ",
    h("span", { class: "muted" }, [t(" vs {names}", { names: others }), " · ", statusWord(g.status),
      place ? ` · ${place}` : "", g.won ? " · " + t("won") : "",
      g.left ? " · " + t("a bot finished it") : ""].join("")), " ",
    g.replay ? h("a", { class: "button", href: g.replay }, t("Replay")) : null, " ",
    g.review ? h("a", { class: "button", href: g.link }, t("Review")) : null, " ",
    own && g.seat_link && g.status !== "finished"
      ? h("a", { class: "button primary", href: g.seat_link }, t("Open")) : null);
}

/** A profile: ``accountId`` someone's, or null for the signed-in person's own (with their
 * own controls: name, export, sign out everywhere, delete). */
export async function showProfile(root, accountId) {
  await loadMe();
  const own = accountId === null || (me.signed_in && me.account.id === accountId);
  if (own && !me.signed_in) {
    fill(root, topbar(), h("main", { class: "profile" }, h("h2", {}, t("Profile")),
      h("p", {}, t("Sign in to see your profile.")), accountBox()));
    return;
  }
  let profile;
  let mine = [];
  try {
    profile = await api("GET", `/api/players/${encodeURIComponent(own ? me.account.id : accountId)}`);
    if (own) mine = (await api("GET", "/api/me/games")).games;
  } catch (err) {
    problem(root, err);
    return;
  }
  const r = profile.rating;
  const games = own ? mine : profile.games;
  const message = h("div", { class: "form-message", role: "alert" });
  const fail = (err) => fill(message, h("p", { class: "error" }, err.message || String(err)));
  const controls = own ? h("section", { class: "profile-controls", "aria-label": t("Your account") },
    h("h3", {}, t("Your account")),
    h("form", { class: "rename", onsubmit: async (e) => {
      e.preventDefault();
      fill(message);
      try {
        await api("POST", "/api/me/name", { name: e.target.elements.name.value });
        location.reload();
      } catch (err) { fail(err); }
    } }, h("label", { for: "profile-name" }, t("Name ")),
    h("input", { id: "profile-name", name: "name", value: profile.name, maxlength: 20 }), " ",
    h("button", { type: "submit" }, t("Rename"))),
    h("p", {}, h("a", { class: "button export", href: "/api/me/export", download: "flamecraft-account.json" },
      t("Export my data (JSON)")), " ",
    h("button", { type: "button", class: "sign-out-everywhere", onclick: async () => {
      try {
        await api("POST", "/api/me/signout-everywhere");
        location.href = "/";
      } catch (err) { fail(err); }
    } }, t("Sign out everywhere")), " ",
    h("button", { type: "button", class: "delete-account", onclick: async () => {
      if (!window.confirm(t("Delete your account? Your games stay, with your name replaced. This cannot be undone."))) return;
      try {
        await api("DELETE", "/api/me");
        location.href = "/";
      } catch (err) { fail(err); }
    } }, t("Delete my account"))),
    message) : null;
  fill(root, topbar(), h("main", { class: "profile" },
    h("h2", { class: "profile-name" }, profile.name),
    h("p", { class: "rating-line" },
      r.games === 1 ? t("Rating {elo} ± {pm} after 1 rated game: you play like {level}.",
        { elo: r.elo, pm: r.plus_minus, level: r.like_label })
        : r.games ? t("Rating {elo} ± {pm} after {n} rated games: you play like {level}.",
          { elo: r.elo, pm: r.plus_minus, n: r.games, level: r.like_label })
          : t("No rated game yet.")),
    r.games ? ratingPlot(profile.rating_start, profile.history) : null,
    h("p", {}, t("Games played: {played} · finished: {finished}",
      { played: profile.played, finished: profile.finished })),
    profile.by_players.length ? h("table", { class: "win-rates" },
      h("caption", {}, t("Win rate by number of players")),
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("Players")),
        h("th", { scope: "col" }, t("Finished")), h("th", { scope: "col" }, t("Won")),
        h("th", { scope: "col" }, t("Win rate")))),
      h("tbody", {}, profile.by_players.map((b) => h("tr", {},
        h("td", {}, String(b.players)), h("td", {}, String(b.finished)),
        h("td", {}, String(b.won)), h("td", {}, percent(b.win_rate)))))) : null,
    h("h3", {}, t("Games")),
    games.length ? h("ul", { class: "profile-games" }, games.map((g) => gameRow(g, own)))
      : h("p", { class: "muted" }, t("No games yet.")),
    controls));
}

export async function showLeaderboard(root) {
  await loadMe();
  let players, ladder;
  try {
    [players, ladder] = await Promise.all([
      api("GET", "/api/leaderboard").then((r) => r.players),
      api("GET", "/api/bots").then((r) => r.ladder)]);
  } catch (err) {
    problem(root, err);
    return;
  }
  // the levels' ratings as the ladder measured them (ai/roster.py LEVELS), weakest first
  const levels = ladder.filter((l) => l.elo !== null).reverse()
    .map((l) => `${l.label} ${l.elo > 0 ? "+" : "−"}${Math.abs(l.elo)}`).join(", ");
  fill(root, topbar(), h("main", { class: "profile" }, h("h2", {}, t("Leaderboard")),
    h("p", { class: "muted small" }, t("Ratings on the same scale as the bots: {levels}.",
      { levels })),
    players.length ? h("table", { class: "leaderboard" },
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("Rank")),
        h("th", { scope: "col" }, t("Player")), h("th", { scope: "col" }, t("Rating")),
        h("th", { scope: "col" }, t("Rated games")), h("th", { scope: "col" }, t("Plays like")))),
      h("tbody", {}, players.map((p) => h("tr", { dataset: { player: p.id } },
        h("td", {}, String(p.rank)),
        h("td", {}, h("a", { href: `/players/${encodeURIComponent(p.id)}` }, p.name)),
        h("td", {}, `${p.elo} ± ${p.plus_minus}`), h("td", {}, String(p.games)),
        h("td", {}, p.like_label)))))
      : h("p", { class: "muted" }, t("No rated games yet."))));
}

/** The host's recovery link (/account/recover#code=…): adds a new passkey to the account. */
export async function showRecover(root) {
  const code = new URLSearchParams(location.hash.slice(1)).get("code") || "";
  const message = h("div", { class: "form-message", role: "alert" });
  fill(root, topbar(), h("main", { class: "profile" }, h("h2", {}, t("Recover your account")),
    h("p", {}, t("This one-time link from the server's host adds a new passkey to your account.")),
    h("button", { type: "button", class: "primary recover", onclick: async () => {
      fill(message);
      try {
        const opts = await api("POST", "/api/account/recover/options", { code });
        const credential = await createPasskey(opts.options);
        await api("POST", "/api/account/recover", { challenge_id: opts.challenge_id, credential });
        location.href = "/profile";
      } catch (err) {
        fill(message, h("p", { class: "error" }, passkeyProblem(err)));
      }
    } }, t("Add a new passkey")), message));
}
