/**
 * The analysis board: any position of a match, a record file or a game's start; moves are
 * explored by clicks on a line with back and forward (the server rebuilds each position from
 * the source and the line, and keeps nothing); the bot suggests a move and its line; play on
 * against a bot starts a new match from the position shown.
 */
import { ApiError, keepCreated, request } from "./api.js";
import { Board } from "./board.js";
import { ClickPicker } from "./clicks.js";
import { el, notify, replace, words } from "./dom.js";
import { scrollToCurrent, seatColour } from "./panel.js";

const $ = (id) => document.getElementById(id);
const DEFAULT_BOT = "level:medium";

class AnalysisPage {
  constructor() {
    this.source = null;      // what the line starts from (see docs/web-api.md, Analysis)
    this.main = [];          // the decisions of the match or record opened (may be empty)
    this.line = [];          // the decisions explored: the main line or a variation of it
    this.cursor = 0;         // how many decisions of the line the board shows
    this.answer = null;      // the server's answer for the position shown
    this.matchId = null;     // the match whose tokens go with each request, if any
    this.picker = new ClickPicker();
    this.board = new Board($("board"), (id) => this.onCell(id));
    this.games = [];
    this.pending = 0;
    this.wire();
  }

  wire() {
    $("first").addEventListener("click", () => this.go(0));
    $("prev").addEventListener("click", () => this.go(this.cursor - 1));
    $("next").addEventListener("click", () => this.go(this.cursor + 1));
    $("last").addEventListener("click", () => this.go(this.line.length));
    $("restore").addEventListener("click", () => {
      this.line = [...this.main];
      this.go(Math.min(this.cursor, this.line.length));
    });
    $("evaluate").addEventListener("click", () => this.evaluate());
    $("play-on-form").addEventListener("submit", (event) => {
      event.preventDefault();
      this.playOn();
    });
    $("start-form").addEventListener("submit", (event) => {
      event.preventDefault();
      this.openGame($("start-game").value);
    });
    $("record-file").addEventListener("change", () => this.upload());
    document.addEventListener("keydown", (event) => this.onKey(event));
  }

  /** Marks the page while a request is under way (tests wait on it, not on timing). */
  set busy(value) {
    this.pending += value ? 1 : -1;
    document.body.toggleAttribute("data-busy", this.pending > 0);
  }

  async start() {
    try {
      const catalogue = await request("GET", "/api/catalogue");
      this.games = catalogue.games ?? [];
      const bots = catalogue.bots ?? [];
      for (const select of [$("bot-select"), $("play-bot")]) {
        replace(select, bots.map((bot) => el("option", { value: bot.spec, selected: bot.spec === DEFAULT_BOT }, bot.label)));
      }
      replace($("start-game"), this.games.map((game) => el("option", { value: game.id }, game.name)));
    } catch (error) {
      this.fail(error);
    }
    const query = new URLSearchParams(location.search);
    if (query.get("match")) await this.openMatch(query.get("match"), query.get("at"));
    else await this.openGame(query.get("game") ?? this.games[0]?.id ?? "murus-gallicus");
  }

  async openMatch(matchId, at) {
    await this.whileBusy(async () => {
      const opened = await request("POST", "/api/analysis/open", { body: { match: matchId }, matchId });
      this.matchId = matchId;
      $("game-link").hidden = false;
      $("game-link").href = `/match/${encodeURIComponent(matchId)}`;
      // `at` counts turns, as the game page's review does; the line counts decisions.
      const turns = opened.turns ?? [];
      const shownTurns = at === null || at === "" ? turns.length : Math.max(0, Math.min(Number(at) || 0, turns.length));
      const cursor = turns.slice(0, shownTurns).reduce((sum, n) => sum + n, 0);
      const result = opened.result ? ` · ${opened.result}` : "";
      this.adopt(opened, `Game ${matchId}${result}`, cursor);
    });
  }

  async openGame(gameId) {
    const game = this.games.find((g) => g.id === gameId);
    this.matchId = null;
    $("game-link").hidden = true;
    this.adopt({ source: { game: gameId, options: {}, start: null }, main: [] },
      `Start of ${game?.name ?? gameId}`, 0);
  }

  async upload() {
    const file = $("record-file").files?.[0];
    if (!file) return;
    await this.whileBusy(async () => {
      const text = await file.text();
      const opened = await request("POST", "/api/analysis/open", { body: { record: text } });
      this.matchId = null;
      $("game-link").hidden = true;
      const result = opened.result ? ` · ${opened.result}` : "";
      this.adopt(opened, `Record ${file.name}${result}`, opened.main.length);
    });
    $("record-file").value = "";
  }

  /** Start analysing an opened source at `cursor` decisions of its main line. */
  adopt(opened, description, cursor) {
    this.source = opened.source;
    this.main = opened.main ?? [];
    this.line = [...this.main];
    this.evaluation = null;
    $("source-text").textContent = description;
    this.go(cursor);
  }

  /** Show the position after `cursor` decisions of the line. */
  async go(cursor) {
    if (!this.source) return;
    cursor = Math.max(0, Math.min(cursor, this.line.length));
    await this.show({ line: this.line, at: cursor }, cursor);
  }

  async show(body, cursor, preset = null) {
    await this.whileBusy(async () => {
      const answer = await request("POST", "/api/analysis/position", {
        body: { source: this.source, ...body, ...(preset ? { preset } : {}) }, matchId: this.matchId,
      });
      // A seed drawn for this source (Anacund's layout, Cyvasse's coin) is kept from now on.
      if (this.source.game) this.source = { ...this.source, options: answer.options };
      if (preset) {
        this.line = answer.line;
        cursor = answer.line.length;
      }
      this.cursor = cursor;
      this.answer = answer;
      this.evaluation = null;
      this.picker.reset(answer.legal);
      this.choices = null;
      this.render();
    });
  }

  async whileBusy(task) {
    this.busy = true;
    try {
      await task();
    } catch (error) {
      this.fail(error);
    } finally {
      this.busy = false;
    }
  }

  render() {
    const a = this.answer;
    document.title = `Boardlab: analysis of ${a.name}`;
    $("title").textContent = `Analysis: ${a.name}`;
    $("rules-link").hidden = false;
    $("rules-link").href = `/rules/${encodeURIComponent(a.game)}`;
    $("board").dataset.game = a.game;
    document.body.dataset.cursor = this.cursor;
    $("hidden-note").hidden = !a.hidden;
    $("status").textContent = a.result ? `Game over: ${a.result}` : a.status_text;
    $("phase").textContent = a.phase ? `Phase: ${words(a.phase)}` : "";
    // On a phone the panel is under the board: this copy of the status sits above it.
    $("turn-line").textContent = $("status").textContent;
    replace($("players"), a.players.map((name, seat) => el("li", {
      class: `seat${a.to_move === seat ? " to-move" : ""}`, "data-seat": seat,
    },
    el("span", { class: "swatch", style: `background:${seatColour(a, seat)}` }),
    el("span", { class: "seat-name" }, name),
    a.scores ? el("span", { class: "seat-score" }, String(a.scores[seat])) : null,
    a.to_move === seat ? el("span", { class: "turn-mark" }, "to move") : null)));
    replace($("notes"), (a.notes ?? []).map((line) => el("li", {}, line)));
    this.board.show(a.svg);
    this.renderMoves();
    this.renderEvaluation();
    this.renderPlayOn();
    this.renderTurn();
  }

  /** The line's turns; those past where it leaves the opened game's moves are a variation. */
  renderMoves() {
    const a = this.answer;
    let split = 0;
    while (split < this.line.length && split < this.main.length && this.line[split] === this.main[split]) split += 1;
    let start = 0;
    replace($("moves"), a.turns.map((turn, index) => {
      const from = start;
      start = turn.end;
      const current = from < this.cursor && this.cursor <= turn.end;
      const variation = turn.end > split;
      return el("li", {},
        el("button", {
          type: "button",
          class: `move${current ? " current" : ""}${variation ? " variation" : ""}`,
          style: `--seat:${seatColour(a, turn.seat)}`,
          "data-end": turn.end,
          "aria-current": current ? "step" : null,
          title: `${a.players[turn.seat] ?? ""} ${turn.text}${variation ? " (variation)" : ""}`,
          onclick: () => this.go(turn.end),
        }, el("span", { class: "move-n" }, `${index + 1}.`), turn.text));
    }));
    scrollToCurrent($("moves"));
    $("restore").hidden = this.main.length === 0 || split === this.line.length && split === this.main.length;
  }

  renderEvaluation() {
    const box = $("evaluation");
    const e = this.evaluation;
    const a = this.answer;
    $("evaluate").disabled = a.to_move === null;
    if (!e) {
      replace(box, el("p", { class: "muted" }, a.to_move === null
        ? "The game is over in this position."
        : "Ask the bot for its move and line from this position."));
      return;
    }
    const value = (v) => (v > 0 ? "+" : "") + v.toFixed(2);
    replace(box,
      el("p", { class: "suggestion" }, "Suggested for ", el("strong", {}, a.players[e.mover]), ": ",
        el("strong", { class: "suggested-move" }, e.suggestion),
        el("button", { type: "button", class: "play-suggestion", onclick: () => this.decideText(e.suggestion) }, "Play it")),
      el("p", { class: "bot-line" }, "Line: ", e.line_turns.map((t) => t.text).join(", "),
        e.line_over ? " (the game ends)" : ""),
      el("table", { class: "values" },
        el("caption", {}, "Evaluation (−1 lost … +1 won), by the game's own measure"),
        el("thead", {}, el("tr", {}, el("th", { scope: "col" }, "Side"), el("th", { scope: "col" }, "Now"),
          el("th", { scope: "col" }, "After the line"))),
        el("tbody", {}, a.players.map((name, seat) => el("tr", {},
          el("th", { scope: "row" }, name), el("td", {}, value(e.before[seat])), el("td", {}, value(e.after[seat])))))),
      el("p", { class: "muted bot-stats" }, `${e.bot}, ${e.seconds.toFixed(1)} s`));
  }

  renderPlayOn() {
    const a = this.answer;
    const seat = $("play-seat");
    const chosen = seat.value;
    replace(seat, a.players.map((name, index) => el("option", { value: index, selected: String(index) === chosen }, name)));
    if (!chosen && a.to_move !== null) seat.value = String(a.to_move);
    $("play-on-form").hidden = !a.play_on;
    $("play-on-refusal").hidden = a.play_on;
    $("play-on-refusal").textContent = a.play_on_refusal ? `Not here: ${a.play_on_refusal}.` : "";
  }

  /** The cells to click next, the named buttons and the presets of the position shown. */
  renderTurn() {
    const a = this.answer;
    const legal = a.legal ?? [];
    const first = this.picker.clicked.length === 0;
    const next = first ? new Set(legal.filter((d) => d.targets.length).map((d) => d.targets[0])) : this.picker.state().next;
    // Before any click, the bot's suggested decision (if asked) is ringed.
    const ringed = first ? this.evaluation?.targets ?? [] : this.picker.clicked;
    this.board.mark(ringed, next, first);
    replace($("buttons"), legal.filter((d) => d.button).map((d) => el("button", {
      type: "button", class: "decision", "data-button": d.button, title: d.text, onclick: () => this.decide(d),
    }, { H: "Hunker (H)", pass: "Pass", end: "End turn" }[d.button] ?? d.button)));
    replace($("presets"), a.presets.length ? [
      el("span", { class: "muted" }, "Deploy a preset:"),
      a.presets.map((name) => el("button", {
        type: "button", class: "preset", "data-preset": name, onclick: () => this.show({ line: this.line, at: this.cursor }, 0, name),
      }, words(name))),
    ] : []);
    if (!this.choices) replace($("choices"));
  }

  onCell(id) {
    if (this.pending || !this.answer) return;
    const answer = this.picker.click(id);
    this.choices = null;
    if (answer.kind === "play") {
      this.decide(answer.decision);
      return;
    }
    if (answer.kind === "choose") {
      this.choices = answer.options;
      replace($("choices"), [
        el("span", { class: "muted" }, "Play"),
        answer.options.map((d) => el("button", { type: "button", class: "choice", onclick: () => this.decide(d) }, d.text)),
      ]);
    }
    this.renderTurn();
  }

  /** Play a decision where the board stands: the line follows it, or branches off here. */
  decide(decision) {
    this.decideText(decision.text);
  }

  decideText(text) {
    if (this.line[this.cursor] !== text) this.line = [...this.line.slice(0, this.cursor), text];
    this.go(this.cursor + 1);
  }

  async evaluate() {
    const bot = $("bot-select").value;
    await this.whileBusy(async () => {
      const found = await request("POST", "/api/analysis/evaluate", {
        body: { source: this.source, line: this.line, at: this.cursor, bot }, matchId: this.matchId,
      });
      this.evaluation = found;
      this.picker.reset(this.answer.legal);
      this.renderEvaluation();
      this.renderTurn();
    });
  }

  async playOn() {
    await this.whileBusy(async () => {
      const answer = await request("POST", "/api/analysis/play", {
        body: {
          source: this.source,
          line: this.line.slice(0, this.cursor),
          seat: Number($("play-seat").value),
          bot: $("play-bot").value,
        },
        matchId: this.matchId,
      });
      keepCreated(answer);
      location.href = `/match/${encodeURIComponent(answer.id)}`;
    });
  }

  onKey(event) {
    const tag = event.target.tagName;
    if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA" || event.altKey || event.ctrlKey || event.metaKey) return;
    const keys = {
      ArrowLeft: () => this.go(this.cursor - 1),
      ArrowRight: () => this.go(this.cursor + 1),
      Home: () => this.go(0),
      End: () => this.go(this.line.length),
      Escape: () => { this.picker.reset(this.answer?.legal ?? []); this.choices = null; this.renderTurn(); },
    };
    if (!keys[event.key] || !this.answer) return;
    event.preventDefault();
    keys[event.key]();
  }

  fail(error) {
    notify(error instanceof ApiError ? error.message : "Something went wrong; reload the page.");
  }
}

new AnalysisPage().start();
