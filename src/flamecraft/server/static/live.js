// The live connection to a game (WebSocket /ws/games/{id}): reconnects with exponential
// backoff when the connection drops, so a flaky phone network never loses the game.

const MAX_DELAY_MS = 10000;
const PING_MS = 25000;

export class Live {
  /**
   * @param {string} path  e.g. "/ws/games/abc"
   * @param {string[]} protocols  a seat's ["flamecraft", "flamecraft-seat.<seat>.<key>"]
   *   (the key in a header, never in the URL), or [] for a spectator
   * @param {(msg: object) => void} onMessage
   * @param {(status: "connecting"|"open"|"closed", info: object) => void} onStatus
   */
  constructor(path, protocols, onMessage, onStatus) {
    this.path = path;
    this.protocols = protocols;
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    this.attempt = 0;
    this.ws = null;
    this.stopped = false;
    this.timer = null;
    this.pinger = null;
  }

  url() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    return `${scheme}//${location.host}${this.path}`;
  }

  connect() {
    if (this.stopped) return;
    this.onStatus("connecting", { attempt: this.attempt });
    let ws;
    try {
      ws = this.protocols.length ? new WebSocket(this.url(), this.protocols)
        : new WebSocket(this.url());
    } catch {
      this.retry();
      return;
    }
    this.ws = ws;
    ws.onopen = () => {
      this.attempt = 0;
      this.onStatus("open", {});
      clearInterval(this.pinger);
      this.pinger = setInterval(() => this.send({ type: "ping" }), PING_MS);
    };
    ws.onmessage = (event) => {
      let msg;
      try {
        msg = JSON.parse(event.data);
      } catch {
        return;
      }
      this.onMessage(msg);
    };
    ws.onclose = () => {
      clearInterval(this.pinger);
      if (this.ws === ws) this.ws = null;
      if (!this.stopped) this.retry();
    };
    ws.onerror = () => { /* onclose follows and retries */ };
  }

  retry() {
    // 0.5 s, 1 s, 2 s, 4 s … capped at 10 s, with jitter so many clients do not reconnect at once.
    const base = Math.min(MAX_DELAY_MS, 500 * 2 ** this.attempt);
    const delay = Math.round(base * (0.75 + Math.random() * 0.5));
    this.attempt += 1;
    this.onStatus("closed", { retryInMs: delay, attempt: this.attempt });
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.connect(), delay);
  }

  /** Sends a message; returns false when the connection is not open (the caller says so). */
  send(msg) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(msg));
    return true;
  }

  /** Drops the connection on purpose (tests use it to check reconnection); it reconnects. */
  drop() {
    if (this.ws) this.ws.close();
  }

  stop() {
    this.stopped = true;
    clearTimeout(this.timer);
    clearInterval(this.pinger);
    if (this.ws) this.ws.close();
  }
}
