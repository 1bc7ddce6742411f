// Entry point: "/" is the lobby, "/play/<game id>" a game (a seat with #seat=&token=, a
// spectator without, a replay with ?replay=1). No build step: the browser loads these modules.
// A seat's key rides in the URL fragment, which the browser never sends to the server (no
// request line, log or Referer holds it), and reaches the live table in the WebSocket
// subprotocol header; an old ?seat=&token= link still works and is moved into the fragment.

import { bindSeat, loadMe, showLeaderboard, showProfile, showRecover } from "./account.js";
import { Attention } from "./attention.js";
import { Catalog } from "./cards.js";
import { ChatPanel } from "./chat.js";
import { api, brand, fill, h, languageSwitch } from "./dom.js";
import { language, loadLanguage, t } from "./i18n.js";
import { Live } from "./live.js";
import {
  forgetOtherLinks, forgetSeat, rememberLinks, rememberSeat, showLobby, waitingRoom,
} from "./lobby.js";
import { showReplay } from "./replay.js";
import { reviewPanel } from "./review.js";
import { Table } from "./table.js";

const root = document.getElementById("app");

function problem(text) {
  fill(root, h("header", { class: "topbar" }, brand(),
    languageSwitch()),
  h("main", { class: "waiting" }, h("p", { class: "error", role: "alert" }, text),
    h("p", {}, h("a", { href: "/" }, t("← Back to the lobby")))));
}

async function showGame(gameId, params) {
  const seatText = params.get("seat");
  const token = params.get("token");
  const seat = seatText !== null && token ? Number(seatText) : null;
  fill(root, h("p", { class: "loading" }, t("Loading the game…")));
  let cat;
  let info;
  try {
    [cat, info] = await Promise.all([Catalog.load(), api("GET", `/api/games/${gameId}`)]);
  } catch (err) {
    problem(t("This game cannot be opened: {error}", { error: err.message }));
    return;
  }
  if (params.get("replay")) {
    await showReplay(root, cat, info, seat, token);
    return;
  }
  if (info.status === "open") info = await waitingRoom(root, info, seat, token);
  else forgetOtherLinks(gameId, seat);
  startTable(cat, info, seat, token);
}

function startTable(cat, info, seat, token) {
  const gameId = info.game_id;
  fill(root, h("p", { class: "loading" }, t("Connecting to the table…")));
  let live = null;
  let table = null;
  // the review of the finished game (GET /api/games/{id}/review), once asked for
  let review = null;
  const askReview = async () => {
    review = { loading: true };
    table.render();
    try {
      review = { data: await api("GET", `/api/games/${gameId}/review`) };
    } catch (err) {
      review = { error: err.message };
    }
    table.render();
  };
  const finishedButtons = () => h("div", { class: "choices" },
    // a rematch offered to this seat: one click joins it (the same key opens it)
    seat !== null ? h("button", { class: "choice primary rematch-button",
      onclick: () => rematch(gameId, seat, token, table) },
    table.rematchLink ? t("Join the rematch") : t("Play again")) : null,
    // a seat's replay shows its own cards as they were: the key goes with it (the fragment)
    h("a", { class: "button", href: `/play/${gameId}?replay=1${seat !== null && token
      ? `#${new URLSearchParams({ seat, token })}` : ""}` }, t("Watch the replay")),
    review || (table.msg && table.msg.result && (table.msg.result.abandoned != null
      || table.msg.result.ended)) ? null
      : h("button", { class: "choice review-button", onclick: askReview,
      title: t("Every decision valued by a bot, the biggest mistakes, and the win chances") },
    t("Review")),
    h("a", { class: "button", href: "/" }, t("Back to the lobby")));
  const attention = new Attention(info.name || "");
  let remembered = false;
  table = new Table(root, cat, {
    send: (msg) => live.send(msg),
    title: info.name || "",
    hint: seat !== null ? () => api("POST", `/api/games/${gameId}/hint`, { seat, token }) : null,
    // a seat's changes: a vote for a bot in an away person's place, concede, reclaim
    seatApi: seat !== null ? (path, body) => api("POST", `/api/games/${gameId}/${path}`,
      { seat, token, ...body }) : null,
    finishedButtons,
    // below the prompt, above the scores (the prompt stays short)
    extraTop: () => (review ? reviewPanel(review, seat) : null),
    sound: seat !== null ? { on: () => attention.soundOn(), toggle: () => attention.toggleSound() }
      : null,
    notify: seat !== null && attention.canNotify() ? { on: () => attention.notifyOn(),
      toggle: () => attention.toggleNotify() } : null,
    onUpdate: (t) => attention.update(t.myTurn),
  });
  // the table chat (chat.js): shown once the table is, outside it (it is drawn anew on
  // every state; the chat keeps what is typed and where the keyboard is)
  const chat = new ChatPanel({ gameId, seat, send: (msg) => live.send(msg),
    canWrite: seat !== null || info.spectator_chat === true });
  window.flamecraftChat = chat;
  const protocols = seat !== null ? ["flamecraft", `flamecraft-seat.${seat}.${token}`] : [];
  live = new Live(`/ws/games/${gameId}?lang=${language()}`, protocols, (msg) => {
    if (msg.type === "chat") {
      chat.receive(msg);
    } else if (msg.type === "error" && msg.chat) {
      chat.showError(msg);
    } else if (msg.type === "state") {
      if (!chat.el.isConnected) document.body.appendChild(chat.el);
      chat.setSeats(msg.seats);
      if (msg.rematch && msg.rematch.link) {
        table.rematchLink = msg.rematch.link;
        table.rematchGame = msg.rematch.game_id;
      }
      if (!remembered && seat !== null && msg.seat === seat) {
        // the key was accepted: "my games" in the lobby leads back here
        rememberSeat(gameId, seat, token, info.name);
        remembered = true;
        bindSeat(gameId, seat, token); // signed in: "my games" on every device (account.js)
      }
      table.update(msg);
    }
    else if (msg.type === "error") {
      if (["bad_token", "not_found", "too_many"].includes(msg.code)) live.stop();
      if (["bad_token", "not_found"].includes(msg.code) && seat !== null) forgetSeat(gameId, seat);
      if (table.msg) table.showError(msg);
      else if (msg.code === "too_many") problem(t("This table cannot be opened now: {error}", { error: msg.message }));
      else problem(t("This link does not open a seat: {error}", { error: msg.message || msg.code }));
    } else if (msg.type === "stalled" || msg.type === "healed") {
      // a bot's move the server could not make yet (its store, its workers), and the game
      // going on again: the server's own words, in this page's language
      if (table.msg) table.setNotice(msg.message, msg.type === "stalled" ? "error" : "info");
    } else if (msg.type === "presence") {
      table.setPresence(msg);
    } else if (msg.type === "rematch" && msg.link) {
      table.rematchLink = msg.link;
      table.rematchGame = msg.game_id;
      table.setNotice(t("A new game was set up with the same seats: press “Join the rematch” "
        + "to take your seat in it (your link to this game opens it too)."), "info");
    }
  }, (status, detail) => {
    table.setConnection(status, detail);
    // the server counts a person away once no tab of theirs is open and shown for a while;
    // the first presence message also asks it for everyone's (server/presence.py)
    if (status === "open") {
      sayPresence();
      live.send({ type: "chat", history: true }); // the recent lines, then each new one
    }
  });
  const sayPresence = () => live.send({ type: "presence", hidden: document.hidden });
  document.addEventListener("visibilitychange", sayPresence);
  // the tests (and curious players) may drop the connection to see it come back
  window.flamecraftLive = live;
  live.connect();
}

async function rematch(gameId, seat, token, table) {
  if (table.rematchLink) {
    // joined at once (this seat's key opens the new game too), so the waiting room shows
    // it joined; if it cannot be (the game has moved on), the link still opens it
    try {
      if (table.rematchGame) {
        await api("POST", `/api/games/${encodeURIComponent(table.rematchGame)}/join`,
          { seat, token });
      }
    } catch {
      // the new game's page says where it stands
    }
    location.href = table.rematchLink;
    return;
  }
  try {
    const created = await api("POST", `/api/games/${gameId}/rematch`, { seat, token });
    rememberLinks(created);
    const mine = created.seats.find((s) => s.seat === seat && s.token);
    location.href = mine ? mine.link : created.spectate || `/play/${created.game_id}`;
  } catch (err) {
    table.setNotice(t("A new game could not be set up: {error}", { error: err.message }), "error");
  }
}

/** The page's parameters: the fragment's seat and key, and the query's (an old link, whose
 * key is then moved into the fragment so that it is not sent again on reload). */
function pageParams() {
  const params = new URLSearchParams(location.search);
  const fragment = new URLSearchParams(location.hash.slice(1));
  if (!fragment.get("token") && params.get("token")) {
    fragment.set("seat", params.get("seat") || "");
    fragment.set("token", params.get("token"));
    params.delete("seat");
    params.delete("token");
    const rest = params.toString();
    history.replaceState(null, "", `${location.pathname}${rest ? `?${rest}` : ""}#${fragment}`);
  }
  for (const key of ["seat", "token"]) {
    if (fragment.get(key) !== null) params.set(key, fragment.get(key));
  }
  return params;
}

// the catalogue of the chosen language first: everything below draws in it
await loadLanguage();
await loadMe(); // signed in or a guest (account.js): the CSRF token the page's changes carry
const match = location.pathname.match(/^\/play\/([^/]+)\/?$/);
if (match) {
  showGame(decodeURIComponent(match[1]), pageParams());
  // a link of another seat of this same game, opened in this tab, changes only the fragment
  window.addEventListener("hashchange", () => location.reload());
} else if (location.pathname === "/profile" || location.pathname.startsWith("/players/")) {
  // a profile (account.js): one's own, or someone's by their id
  const id = location.pathname.startsWith("/players/")
    ? decodeURIComponent(location.pathname.slice("/players/".length)) : null;
  showProfile(root, id);
} else if (location.pathname === "/leaderboard") {
  showLeaderboard(root);
} else if (location.pathname === "/account/recover") {
  showRecover(root);
} else {
  showLobby(root).catch((err) => problem(t("The lobby could not be loaded: {error}",
    { error: err.message })));
}
