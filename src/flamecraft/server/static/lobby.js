// The lobby: create a game (seats, deck, Companions, a name), share invite links, see the
// open, running and finished games; and the waiting room of one game before it starts.

import { api, brand, copyText, fill, h, languageSwitch } from "./dom.js";
import { language, t } from "./i18n.js";
import { SEAT_MARKS } from "./cards.js";
import { CLOCK_PRESETS, clockLabel, span } from "./clock.js";
import { Live } from "./live.js";
import { ChatPanel } from "./chat.js";
import { accountBox, bindSeat, signedIn } from "./account.js";

const FALLBACK_BOTS = { ladder: [{ name: "random", about: "" }], default: "random" };
const REFRESH_MS = 4000;
const MY_GAMES = "flamecraft-my-games";
const MY_GAMES_KEPT = 30;

/** A level (or bot) as a choice reads: its plain name and its few words. */
function botWords(b) {
  const name = b.label || b.name;
  return b.about ? `${name} — ${b.about}` : name;
}

// the host's stand-in by default (a person's seat played while they are away): the quick
// beginner level, greedy, as the server's own default (server/standins.py STAND_IN: nobody
// waits on it)
const STAND_IN = "beginner";

/** The levels the server offers, strongest first with a few words each, and the default one
 * (GET /api/bots; the list itself is flamecraft.ai.roster.LEVELS, in Python). */
export async function botLadder() {
  try {
    const data = await api("GET", "/api/bots");
    if (data && Array.isArray(data.ladder) && data.ladder.length) {
      return { ladder: data.ladder, default: data.default || data.ladder[0].name };
    }
    if (data && Array.isArray(data.bots) && data.bots.length) {
      return { ladder: data.bots.map((name) => ({ name, about: "" })),
        default: data.default || data.bots[0] };
    }
  } catch {
    // an older server without the list: fall back
  }
  return FALLBACK_BOTS;
}

/** The seats this browser holds (a seat's key opens its hand: kept in localStorage so that a
 * closed tab is not a lost seat), newest first. */
export function myGames() {
  try {
    const list = JSON.parse(localStorage.getItem(MY_GAMES) || "[]");
    return Array.isArray(list) ? list.filter((g) => g && g.game_id && g.token) : [];
  } catch {
    return [];
  }
}

/** Remembers a seat this browser opened (the newest first; the oldest beyond a few dozen are
 * dropped). */
export function rememberSeat(gameId, seat, token, name) {
  try {
    const rest = myGames().filter((g) => !(g.game_id === gameId && g.seat === seat));
    const old = myGames().find((g) => g.game_id === gameId && g.seat === seat);
    const entry = { game_id: gameId, seat, token, name: name || (old && old.name) || gameId,
      added: (old && old.added) || Date.now() };
    localStorage.setItem(MY_GAMES, JSON.stringify([entry, ...rest].slice(0, MY_GAMES_KEPT)));
  } catch {
    // private mode or storage full: the link in the address bar is still the key
  }
}

/** Forgets a seat (the lobby's "forget", or a key the server no longer takes). */
export function forgetSeat(gameId, seat) {
  try {
    localStorage.setItem(MY_GAMES, JSON.stringify(myGames().filter((g) =>
      !(g.game_id === gameId && g.seat === seat))));
  } catch {
    // nothing was kept
  }
}

/** Remembers the links of a game this browser created, for its waiting room. */
export function rememberLinks(created) {
  try {
    sessionStorage.setItem(`flamecraft-links-${created.game_id}`, JSON.stringify(created));
  } catch {
    // private mode: the links were shown once already
  }
}

/** Once a game has started, the creator keeps only their own seat's key: the others were
 * for sending on, and holding them would let the creator open another seat's hand. */
export function forgetOtherLinks(gameId, seat) {
  try {
    const links = recalledLinks(gameId);
    if (!links) return;
    links.seats = links.seats.map((s) => (s.seat === seat ? s : { ...s, token: null, link: null }));
    sessionStorage.setItem(`flamecraft-links-${gameId}`, JSON.stringify(links));
  } catch {
    // private mode: nothing was kept
  }
}

function recalledLinks(gameId) {
  try {
    return JSON.parse(sessionStorage.getItem(`flamecraft-links-${gameId}`) || "null");
  } catch {
    return null;
  }
}

/** A game's name, or "Game" for one without. */
function untitled(game) {
  return game.name || t("Game");
}

/** The seat that may start the game: the first person's. */
function host(game) {
  const first = (game.seats || []).find((s) => s.kind !== "bot");
  return first ? first.seat : 0;
}

function absolute(link) {
  return new URL(link, location.origin).href;
}

function linkRow(label, link) {
  const input = h("input", { class: "link-input", readonly: true, value: absolute(link),
    "aria-label": t("Invite link for {seat}", { seat: label }), onfocus: (e) => e.target.select() });
  const status = h("span", { class: "copied", "aria-live": "polite" });
  return h("div", { class: "link-row" }, h("span", { class: "link-label" }, label), input,
    h("button", { type: "button", onclick: async () => {
      const ok = await copyText(input.value);
      if (!ok) input.select();
      fill(status, ok ? t("copied") : t("press Ctrl+C"));
    } }, t("Copy")), status);
}

/** The lobby page. */
export async function showLobby(root) {
  const { ladder, default: defaultBot } = await botLadder();
  const seatsBox = h("div", { class: "seats" });
  const count = h("select", { id: "players", name: "players" },
    [1, 2, 3, 4, 5].map((n) => h("option", { value: n, selected: n === 2 }, String(n))));
  const message = h("div", { class: "form-message", role: "alert" });
  const drawSeats = () => {
    const old = [...seatsBox.querySelectorAll(".seat-row")].map((row) => ({
      name: row.querySelector(".seat-name").value,
      kind: row.querySelector(".seat-kind").value,
      bot: row.querySelector(".seat-bot").value,
    }));
    const n = Number(count.value);
    fill(seatsBox, Array.from({ length: n }, (_, i) => {
      // (signed in: the first seat is yours, under your account's name)
      const prev = old[i] || { name: i === 0 ? (signedIn() ? signedIn().name
        : t("Player {n}", { n: 1 })) : t("Bot {n}", { n: i }),
        kind: i === 0 ? "human" : "bot",
        bot: defaultBot };
      // strongest first, each with its few words; the default is the strongest quick one
      const bot = h("select", { class: "seat-bot",
        "aria-label": t("Seat {n} bot strength", { n: i + 1 }), title: t("Bot strength"),
        hidden: prev.kind !== "bot" }, ladder.map((b) => h("option", { value: b.name,
        selected: b.name === prev.bot }, botWords(b))));
      const kind = h("select", { class: "seat-kind",
        "aria-label": t("Seat {n} player", { n: i + 1 }),
        onchange: (e) => { bot.hidden = e.target.value !== "bot"; } },
      h("option", { value: "human", selected: prev.kind === "human" }, t("Person")),
      h("option", { value: "bot", selected: prev.kind === "bot" }, t("Bot")));
      return h("div", { class: "seat-row" },
        h("span", { class: "seat-mark", "aria-hidden": "true" }, SEAT_MARKS[i]),
        h("input", { class: "seat-name", value: prev.name, maxlength: 24,
          "aria-label": t("Seat {n} name", { n: i + 1 }),
          placeholder: t("Seat {n}", { n: i + 1 }) }),
        kind, bot);
    }));
  };
  count.addEventListener("change", drawSeats);
  drawSeats();

  const form = h("form", { class: "create", "aria-label": t("New game") },
    h("h2", {}, t("New game")),
    h("label", { class: "field" }, t("Name "), h("input", { name: "name", id: "game-name",
      value: t("Flamecraft game"), maxlength: 40 })),
    h("label", { class: "field" }, t("Players "), count),
    h("p", { class: "muted small" },
      t("Each seat: a name, a person or a bot, and the bot's strength.")),
    seatsBox,
    h("fieldset", { class: "field" }, h("legend", {}, t("Enchantment deck")),
      h("label", {}, h("input", { type: "radio", name: "deck", value: "purple", checked: true }),
        t(" Purple (first game)")),
      h("label", {}, h("input", { type: "radio", name: "deck", value: "golden" }), t(" Golden"))),
    h("label", { class: "field" }, h("input", { type: "checkbox", name: "companions" }),
      t(" Companions (optional module)")),
    h("label", { class: "field" }, h("input", { type: "checkbox", name: "hints", checked: true }),
      t(" Hints (a player may ask for the three best choices; everyone sees whether they are on)")),
    // a rated game (signed in only): hints are off in it, and its seed the server's
    signedIn() ? h("label", { class: "field" }, t("Rated "), h("select", { name: "rated" },
      h("option", { value: "" }, t("No")),
      h("option", { value: "people" }, t("Yes, among people")),
      h("option", { value: "bots" }, t("Yes, people and bots")))) : null,
    h("label", { class: "field" }, t("Clock "), h("select", { name: "clock" },
      CLOCK_PRESETS.map(([value, clock]) => h("option", { value, selected: value === "none" },
        clock ? clockLabel(clock) : t("No clock (the table waits)"))))),
    h("p", { class: "muted small" },
      t("Out of time, or away on their turn, a person's seat is played by a bot until they "
        + "take it back.")),
    h("details", { class: "field" }, h("summary", {}, t("More")),
      // (what matters only at a table of people: out of the newcomer's way)
      h("label", { class: "field" }, t("Bot for a person who leaves "),
        h("select", { name: "stand_in" }, ladder.map((b) => h("option", { value: b.name,
          selected: b.name === STAND_IN }, botWords(b))))),
      h("label", { class: "field" }, h("input", { type: "checkbox", name: "spectator_chat" }),
        t(" Spectators may write in the table chat (the players always may)")),
      h("label", {}, t("Seed "), h("input", { name: "seed", type: "number", min: 0,
        placeholder: t("random") })),
      h("p", { class: "muted small" },
        t("A chosen seed is for games with at most one person: with two or more, the deal is "
        + "always the server's secret."))),
    h("button", { type: "submit", class: "primary" }, t("Create game")),
    message);

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    fill(message);
    const data = new FormData(form);
    const seats = [...seatsBox.querySelectorAll(".seat-row")].map((row, i) => {
      const kind = row.querySelector(".seat-kind").value;
      const seat = { kind, name: row.querySelector(".seat-name").value.trim()
        || t("Player {n}", { n: i + 1 }) };
      if (kind === "bot") seat.bot = row.querySelector(".seat-bot").value;
      return seat;
    });
    const seed = data.get("seed");
    // you against bots (one person, the rest bots): nobody to wait for, so it starts at once
    const alone = seats.filter((s) => s.kind === "human").length === 1;
    const body = { name: String(data.get("name") || "").trim() || t("Flamecraft game"), seats,
      deck: data.get("deck") || "purple", companions: data.get("companions") === "on",
      seed: seed === "" || seed === null ? null : Number(seed), start: alone,
      hints: data.get("hints") === "on",
      clock: (CLOCK_PRESETS.find(([value]) => value === data.get("clock")) || [null, null])[1],
      stand_in: data.get("stand_in") || null, spectator_chat: data.get("spectator_chat") === "on" };
    if (data.get("rated")) Object.assign(body, { rated: data.get("rated"), hints: false, seed: null });
    const submit = form.querySelector("button[type=submit]");
    submit.disabled = true;
    try {
      const created = await api("POST", "/api/games", body);
      rememberLinks(created);
      const mine = created.seats.find((s) => s.token);
      if (mine) {
        rememberSeat(created.game_id, mine.seat, mine.token, body.name);
        await bindSeat(created.game_id, mine.seat, mine.token); // signed in (account.js)
      }
      location.href = mine ? mine.link : created.spectate;
    } catch (err) {
      fill(message, h("p", { class: "error" },
        t("The game could not be created: {error}", { error: err.message })));
      submit.disabled = false;
    }
  });

  const list = h("div", { class: "game-list", "aria-live": "polite" }, t("Loading games…"));
  const mineBox = h("section", { class: "my-games", "aria-label": t("My games"), hidden: true });
  fill(root, h("header", { class: "topbar" }, brand(),
    h("span", { class: "muted" }, t("play in the browser")), languageSwitch()),
  h("main", { class: "lobby" }, form,
    h("div", { class: "lobby-lists" },
      accountBox(),
      mineBox,
      h("section", { class: "games", "aria-label": t("Games") }, h("h2", {}, t("Games")),
        list))));
  drawMyGames(mineBox);

  const refresh = async () => {
    if (!list.isConnected) return;
    try {
      const data = await api("GET", "/api/games");
      drawGames(list, data.games || []);
    } catch (err) {
      fill(list, h("p", { class: "error" },
        t("The list of games could not be loaded: {error}", { error: err.message })));
    }
    setTimeout(refresh, REFRESH_MS);
  };
  refresh();
}

/** "My games": the seats this browser holds, with where each game stands, so a closed tab
 * is not a lost seat. */
async function drawMyGames(box) {
  const mine = myGames();
  if (!mine.length) return;
  const rows = await Promise.all(mine.map(async (g) => {
    try {
      return { g, info: await api("GET", `/api/games/${encodeURIComponent(g.game_id)}`) };
    } catch (err) {
      return { g, info: null, gone: /no game/.test(err.message) };
    }
  }));
  const order = { running: 1, open: 2, finished: 3 };
  const kept = rows.filter((r) => !r.gone);
  for (const r of rows) if (r.gone) forgetSeat(r.g.game_id, r.g.seat);
  // the games where it is your turn first, the soonest deadline first among them
  const myTurn = (r) => r.info && r.info.status === "running" && r.info.to_act === r.g.seat;
  const rank = (r) => (myTurn(r) ? 0 : order[r.info ? r.info.status : "x"] ?? 4);
  const due = (r) => (r.info && r.info.deadline) || Infinity;
  kept.sort((a, b) => rank(a) - rank(b) || (rank(a) === 0 ? due(a) - due(b) : 0));
  if (!kept.length) return;
  const link = (g) => `/play/${encodeURIComponent(g.game_id)}#seat=${g.seat}&token=${g.token}`;
  fill(box, h("h2", {}, t("My games "), h("span", { class: "muted small" },
    t("kept in this browser"))),
    h("ul", {}, kept.map(({ g, info }) => {
      const status = info ? info.status : "unknown";
      const seatName = info && info.seats[g.seat] ? info.seats[g.seat].name : "";
      const others = info ? info.seats.filter((s) => s.seat !== g.seat).map((s) => s.name) : [];
      const mineNow = info && status === "running" && info.to_act === g.seat;
      const left = mineNow && info.deadline ? info.deadline - Date.now() / 1000 : null;
      const what = mineNow ? (left === null ? t("your turn")
        : left > 0 ? t("your turn — {time} left", { time: span(left) }) : t("your turn — out of time"))
        : status === "running" ? t("running — continue") : status === "open"
          ? t("waiting to start") : status === "finished" ? t("finished") : "";
      const li = h("li", { class: `game-entry my-game${mineNow ? " my-turn" : ""}`,
        dataset: { game: g.game_id } },
        h("strong", {}, (info && info.name) || g.name), " ",
        h("span", { class: "muted" }, [seatName ? t("as {name}", { name: seatName }) : "",
          others.length ? t(" vs {names}", { names: others.join(t(", ")) }) : "",
          what ? ` · ${what}` : ""].join("")),
        " ",
        h("a", { class: `button${status === "running" ? " primary" : ""}`, href: link(g) },
          status === "finished" ? t("Result") : t("Open")), " ",
        h("button", { class: "link small", "aria-label": t("Forget {name}", { name: g.name }),
          onclick: () => {
          forgetSeat(g.game_id, g.seat);
          li.remove();
          if (!box.querySelector("li")) box.hidden = true;
          } }, t("forget")));
      return li;
    })));
  box.hidden = false;
}

function drawGames(list, games) {
  const groups = [["open", t("Open — waiting to start")], ["running", t("Running")],
    ["finished", t("Finished")]];
  const sections = groups.map(([status, title]) => {
    const mine = games.filter((g) => g.status === status);
    if (!mine.length) return null;
    return h("section", { class: `games-${status}` }, h("h3", {}, title),
      h("ul", {}, mine.map((g) => h("li", { class: "game-entry" },
        h("strong", {}, g.name || g.game_id), " ",
        h("span", { class: "muted" }, (g.seats || []).map((s) =>
          s.name + (s.kind === "bot" ? (s.bot ? t(" (bot: {bot})", { bot: s.bot }) : t(" (bot)"))
            : s.joined ? " ✓" : "")
          + (s.seat === g.first_player ? t(" — plays first") : "")).join(t(", "))),
        clockLabel(g.clock) ? h("span", { class: "clock-setting small" }, ` · ${clockLabel(g.clock)}`)
          : null,
        " ",
        status === "finished"
          ? [h("a", { class: "button", href: `/play/${g.game_id}` }, t("Result")), " ",
            h("a", { class: "button", href: `/play/${g.game_id}?replay=1` }, t("Replay"))]
          : h("a", { class: "button", href: `/play/${g.game_id}` }, t("Watch"))))));
  }).filter(Boolean);
  fill(list, sections.length ? sections
    : h("p", { class: "muted" }, t("No games yet: create one.")));
}

/**
 * The waiting room of an open game. Resolves when the game has started (or was already
 * running), so the caller can open the table.
 */
export function waitingRoom(root, info, seat, token) {
  return new Promise((resolve) => {
    const links = recalledLinks(info.game_id);
    let joined = false;
    let left = false;
    const message = h("div", { class: "form-message", role: "alert" });
    const nameInput = h("input", { class: "join-name", maxlength: 24, "aria-label": t("Your name"),
      value: seat !== null && info.seats[seat] ? info.seats[seat].name : "" });
    const me = seat !== null && token;
    const act = async (what, body) => {
      fill(message);
      try {
        await api("POST", `/api/games/${info.game_id}/${what}`, body);
        return true;
      } catch (err) {
        fill(message, h("p", { class: "error" }, err.message));
        return false;
      }
    };
    const draw = (game) => {
      const seatRows = game.seats.map((s) => h("li", {},
        h("span", { class: "seat-mark" }, SEAT_MARKS[s.seat]), " ", s.name, " ",
        h("span", { class: "muted" }, s.kind === "bot" ? t("bot — always ready")
          : s.joined ? t("joined ✓") : t("not joined yet")),
        s.seat === seat ? h("strong", {}, t(" (you)")) : null,
        s.seat === game.first_player ? h("span", { class: "first-player" }, t(" — plays first"))
          : null));
      const controls = [];
      if (me) {
        const seatJoined = game.seats[seat] && game.seats[seat].joined;
        if (!seatJoined) {
          controls.push(h("div", { class: "join" }, h("label", {}, t("Your name "), nameInput),
            h("button", { class: "primary", onclick: async () => {
              const name = nameInput.value.trim();
              const body = { seat, token };
              if (name) body.name = name;
              if (await act("join", body)) {
                rememberSeat(info.game_id, seat, token, game.name);
                bindSeat(info.game_id, seat, token); // signed in: the account's too
                joined = true;
                left = false;
                poll();
              }
            } }, left ? t("Join again") : t("Join"))));
        } else {
          controls.push(h("button", { onclick: async () => {
            if (await act("leave", { seat, token })) {
              left = true;
              joined = false;
              poll();
            }
          } }, t("Leave")));
        }
        if (seat === host(game)) {
          controls.push(h("button", { class: "primary start", onclick: async () => {
            if (await act("start", { seat, token })) poll();
          } }, t("Start the game")));
        }
      }
      fill(root, h("header", { class: "topbar" }, brand(),
        h("span", { class: "game-name" }, game.name || ""), languageSwitch()),
      h("main", { class: "waiting" },
        h("h2", {}, t("{game}: waiting to start", { game: untitled(game) })),
        h("ul", { class: "seat-list" }, seatRows),
        h("p", { class: "hints-setting" }, game.hints === false
          ? t("Hints off: the host turned them off for this game.")
          : t("Hints on: each player may ask for the three best choices at their decision.")),
        clockLabel(game.clock) ? h("p", { class: "clock-setting" }, clockLabel(game.clock)) : null,
        info.rated ? h("p", { class: "rated-setting" }, info.rated === "people"
          ? t("Rated game among people: its end moves the ratings of the signed-in players.")
          : t("Rated game, people and bots: its end moves the ratings of the signed-in players."))
          : null,
        h("div", { class: "controls" }, controls),
        message,
        me && seat === host(game) ? h("p", { class: "muted" },
          t("Start whenever you like: people who have not joined can still open their link and "
            + "play."))
          : me ? h("p", { class: "muted" }, t("The game starts when its creator presses Start."))
            : h("p", { class: "muted" },
              t("You are watching: the table appears once the game starts.")),
        links ? h("section", { class: "invites" }, h("h3", {}, t("Invite links")),
          h("p", { class: "muted" },
            t("Send each person their own link (it is their seat's key).")),
          links.seats.filter((s) => s.link && s.token).map((s) =>
            linkRow(`${SEAT_MARKS[s.seat]} ${s.name}` + (s.seat === seat ? t(" (you)") : ""),
              s.link)),
          linkRow(t("Spectators"), links.spectate)) : null,
        h("p", {}, h("a", { href: "/" }, t("← Back to the lobby")))));
    };
    // Joins, leaves and the start arrive over the game's WebSocket (each change is a state
    // message: the seats and the status), so nothing is polled.
    let latest = info;
    let live = null;
    // the table chat is open before the start too (the table's own panel, once it opens,
    // reads the same lines)
    const chat = new ChatPanel({ gameId: info.game_id, seat: me ? seat : null,
      send: (msg) => Boolean(live && live.send(msg)),
      canWrite: Boolean(me) || info.spectator_chat === true });
    const shown = (game) => {
      latest = game;
      if (game.status !== "open") {
        if (live) live.stop();
        chat.el.remove();
        forgetOtherLinks(info.game_id, seat);
        resolve(game);
        return;
      }
      if (!chat.el.isConnected) document.body.appendChild(chat.el);
      const active = document.activeElement;
      const typing = active && active.classList && active.classList.contains("join-name");
      if (!typing) draw(game);
    };
    const poll = async () => {
      // after a change made here: its answer comes over the socket too; read it now anyway
      // (the socket may be reconnecting)
      try {
        shown(await api("GET", `/api/games/${info.game_id}`));
      } catch (err) {
        fill(message, h("p", { class: "error" }, err.message));
      }
    };
    const protocols = me ? ["flamecraft", `flamecraft-seat.${seat}.${token}`] : [];
    live = new Live(`/ws/games/${encodeURIComponent(info.game_id)}?lang=${language()}`,
      protocols, (msg) => {
        if (msg.type === "chat") {
          chat.receive(msg);
          return;
        }
        if (msg.type === "error" && msg.chat) {
          chat.showError(msg);
          return;
        }
        if (msg.type !== "state" || msg.version < (latest.version || 0)) return;
        chat.setSeats(msg.seats);
        shown({ ...latest, name: msg.name, seats: msg.seats, status: msg.status,
          version: msg.version, hints: msg.hints, clock: msg.clock });
      }, (status) => {
        if (status === "open") live.send({ type: "chat", history: true });
      });
    live.connect();
    // the creator's own seat joins by itself; others press Join
    if (me && links && links.seats.some((s) => s.seat === seat && s.token === token)
        && !(info.seats[seat] && info.seats[seat].joined) && !joined) {
      act("join", { seat, token }).then(() => poll());
    } else {
      draw(info);
    }
  });
}
