/**
 * The clocks of the game page: each seat's time, counted down between the server's views.
 *
 * The server keeps the clocks and sends, with every view, each seat's time at the start of the
 * turn, the seat whose clock runs, when its turn began and its own time of answering (`now`).
 * The page only interpolates: the running clock shows what the server's figures give for the
 * server's time now (the page's clock may be off; the difference is measured on each view).
 * Whatever the page shows, the server's next view wins.
 */
import { el, replace } from "./dom.js";

const TICK_MS = 100;
const LOW_SECONDS = 10;

export class Clocks {
  /**
   * `box` holds the clocks; `strip` repeats them compactly next to the board (shown on narrow
   * screens, where the panel is below the board); `onZero()` is called once when the running
   * clock reaches zero.
   */
  constructor(box, strip, onZero) {
    this.box = box;
    this.strip = strip;
    this.onZero = onZero;
    this.clock = null;
    this.offset = 0;       // server time minus page time, in seconds
    this.zeroCalled = false;
    this.timer = null;
  }

  /** Take the clock figures of a new view (none: hide the clocks). */
  update(view) {
    this.clock = view.clock ?? null;
    this.names = view.players.map((player) => player.name);
    this.you = new Set(view.you ?? []);
    this.finished = view.status === "finished";
    if (typeof view.now === "number") this.offset = view.now - Date.now() / 1000;
    this.zeroCalled = false;
    this.box.hidden = this.strip.hidden = !this.clock;
    clearInterval(this.timer);
    this.timer = null;
    if (!this.clock) return;
    this.build();
    this.tick();
    if (this.clock.running !== null) this.timer = setInterval(() => this.tick(), TICK_MS);
  }

  build() {
    const c = this.clock;
    this.faces = this.names.map((name, seat) => el("span", { class: "clock-time", "data-seat": seat }));
    this.stripFaces = this.names.map(() => el("span", { class: "clock-time" }));
    const label = (seat) => this.you.has(seat) ? `${this.names[seat]} (you)` : this.names[seat];
    replace(this.box,
      el("p", { class: "clock-control muted" }, c.kind === "correspondence" ? c.label : `Time control ${c.label}`),
      el("ul", { class: "clock-list" }, this.names.map((name, seat) => el("li", {
        class: "clock", "data-seat": seat,
      }, el("span", { class: "clock-name" }, label(seat)), this.faces[seat]))),
      el("p", { class: "clock-deadline muted" }));
    replace(this.strip, ...this.names.map((name, seat) => el("span", {
      class: "strip-clock", "data-seat": seat,
    }, el("span", { class: "clock-name" }, label(seat)), this.stripFaces[seat])));
  }

  /** Seconds a seat has now, by the server's figures. */
  left(seat) {
    const c = this.clock;
    const base = c.remaining[seat];
    if (c.running !== seat) return base;
    const serverNow = Date.now() / 1000 + this.offset;
    return Math.max(0, base - (serverNow - c.since));
  }

  tick() {
    const c = this.clock;
    if (!c) return;
    for (const [seat, face] of this.faces.entries()) {
      const running = c.running === seat && !this.finished;
      const left = this.left(seat);
      const text = c.kind === "correspondence" ? daysText(left, running) : clockText(left);
      for (const shown of [face, this.stripFaces[seat]]) {
        shown.textContent = text;
        const item = shown.parentElement;
        item.classList.toggle("running", running);
        item.classList.toggle("low", running && c.kind === "realtime" && left < LOW_SECONDS);
        item.classList.toggle("flagged", this.finished && left <= 0);
      }
    }
    const deadline = this.box.querySelector(".clock-deadline");
    if (c.running !== null && !this.finished) {
      const due = new Date((c.since + c.remaining[c.running]) * 1000 - this.offset * 1000);
      deadline.textContent = c.kind === "correspondence"
        ? `${this.names[c.running]} must move by ${due.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" })}`
        : "";
      if (this.left(c.running) <= 0 && !this.zeroCalled) {
        this.zeroCalled = true;
        this.onZero();
      }
    } else {
      deadline.textContent = c.running === null && !this.finished && c.kind === "realtime"
        ? "The clocks start once each side has made its first move." : "";
    }
  }
}

/** A real-time clock face: 4:59, 1:02:03, or 0:09.4 under ten seconds. */
export function clockText(seconds) {
  const s = Math.max(0, seconds);
  if (s < LOW_SECONDS) return `0:0${s.toFixed(1)}`;
  const whole = Math.floor(s);
  const h = Math.floor(whole / 3600);
  const m = Math.floor((whole % 3600) / 60);
  const sec = String(whole % 60).padStart(2, "0");
  return h ? `${h}:${String(m).padStart(2, "0")}:${sec}` : `${m}:${sec}`;
}

/** Time left with days per move: "2 days 3 h", "5 h 12 min", "12 min". */
function daysText(seconds, running) {
  const s = Math.max(0, seconds);
  const days = Math.floor(s / 86400);
  const hours = Math.floor((s % 86400) / 3600);
  const minutes = Math.floor((s % 3600) / 60);
  const text = days ? `${days} day${days > 1 ? "s" : ""} ${hours} h`
    : hours ? `${hours} h ${minutes} min` : `${minutes} min`;
  return running ? `${text} left` : text;
}
