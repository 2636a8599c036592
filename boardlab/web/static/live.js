/** The live connection of the game page: a websocket that reopens itself with backoff. */

const FIRST_DELAY_MS = 300;
const MAX_DELAY_MS = 8000;

/**
 * Follows one match: calls `onView(view)`, `onThinking(seat)`, `onChat(message)` (chat lines),
 * `onState("live"|"down")`, and
 * `onError(message)` when the server refuses the connection (then it stops retrying).
 */
export class LiveConnection {
  constructor(matchId, tokens, { onView, onThinking, onChat, onState, onError }) {
    this.matchId = matchId;
    this.tokens = tokens;
    this.handlers = { onView, onThinking, onChat, onState, onError };
    this.delay = FIRST_DELAY_MS;
    this.stopped = false;
    this.socket = null;
  }

  /** Open the connection (and keep reopening it until `stop`). */
  start() {
    this.stopped = false;
    this.open();
  }

  /** Close for good. */
  stop() {
    this.stopped = true;
    clearTimeout(this.timer);
    this.socket?.close();
  }

  open() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const socket = new WebSocket(`${scheme}://${location.host}/ws/matches/${encodeURIComponent(this.matchId)}`);
    this.socket = socket;
    socket.addEventListener("open", () => {
      socket.send(JSON.stringify({ tokens: this.tokens }));
    });
    socket.addEventListener("message", (event) => {
      let data;
      try {
        data = JSON.parse(event.data);
      } catch {
        return;
      }
      if (data.type === "error") {
        this.stop();
        this.handlers.onError(data.error ?? "The server refused the live connection.");
        return;
      }
      this.delay = FIRST_DELAY_MS;
      this.handlers.onState("live");
      if (data.type === "thinking") this.handlers.onThinking(data.seat);
      else if (data.type === "view") this.handlers.onView(data.view);
      else if (data.type === "chat") this.handlers.onChat?.(data);
      else if (data.id) this.handlers.onView(data);
    });
    socket.addEventListener("close", () => {
      if (this.socket !== socket || this.stopped) return;
      this.handlers.onState("down");
      this.timer = setTimeout(() => this.open(), this.delay);
      this.delay = Math.min(this.delay * 2, MAX_DELAY_MS);
    });
  }
}
