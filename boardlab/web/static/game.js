/**
 * The game page: follows one match live, builds the user's decisions by clicks (compound
 * turns step by step through the preview API), and offers review, flip, resign, takeback,
 * rematch and the record download.
 */
import { ApiError, claimInvite, keepCreated, loadInvites, loadTokens, request } from "./api.js";
import { TurnSignal } from "./signal.js";
import { Board } from "./board.js";
import { Chat } from "./chat.js";
import { ClickPicker } from "./clicks.js";
import { Clocks } from "./clock.js";
import { el, notify, replace, words } from "./dom.js";
import { LiveConnection } from "./live.js";
import { showOffer, showOfferButtons } from "./offers.js";
import { endText, showBanner, showMoves, showPlayers } from "./panel.js";

const $ = (id) => document.getElementById(id);

class GamePage {
  constructor(matchId) {
    this.id = matchId;
    this.api = `/api/matches/${encodeURIComponent(matchId)}`;
    this.view = null;
    this.steps = [];          // decisions of the unfinished turn, committed together
    this.preview = null;      // the preview after `steps` (null: show the view itself)
    this.turnKey = `boardlab:turn:${matchId}`;  // `steps` kept over a reload: {seat, ply, steps}
    this.picker = new ClickPicker();
    this.reviewAt = null;     // turns shown while reviewing (null: the live position)
    this.thinkingSeat = null;
    this.busy = false;        // a request of this page is under way: clicks wait for it
    this.bots = new Map();
    this.endings = {};        // termination -> the sentence saying why a game ended
    this.games = [];          // the catalogue's games (each with its turn hints per phase)
    this.flipChoice = localStorage.getItem(`boardlab:flip:${matchId}`);
    this.flipped = this.flipChoice === "1";
    this.board = new Board($("board"), (id) => this.onCell(id));
    this.board.setFlipped(this.flipped);
    this.signal = new TurnSignal($("alerts"));
    // At zero the server's timer flags the seat; asking again only fetches its word sooner.
    this.clocks = new Clocks($("clocks"), $("clock-strip"), () => this.refresh());
    this.chat = new Chat(matchId, (error) => this.fail(error));
    this.wire();
  }

  wire() {
    $("undo-step").addEventListener("click", () => this.undoStep());
    $("confirm-turn").addEventListener("click", (event) => this.confirm(event.detail === 0));
    $("flip").addEventListener("click", () => this.flip());
    $("resign").addEventListener("click", () => this.resign());
    $("abort").addEventListener("click", () => this.abort());
    $("takeback").addEventListener("click", () => this.takeback());
    $("offer-draw").addEventListener("click", () => this.offer("draw"));
    $("ask-takeback").addEventListener("click", () => this.offer("takeback"));
    $("review-live").addEventListener("click", () => this.review(null));
    $("first").addEventListener("click", () => this.review(0));
    $("prev").addEventListener("click", () => this.step(-1));
    $("next").addEventListener("click", () => this.step(1));
    $("last").addEventListener("click", () => this.review(null));
    for (const b of document.querySelectorAll(".download")) b.addEventListener("click", () => this.download());
    for (const b of document.querySelectorAll(".rematch")) b.addEventListener("click", () => this.rematch());
    $("notation").addEventListener("submit", (event) => {
      event.preventDefault();
      this.typed($("notation-input").value.trim());
    });
    document.addEventListener("keydown", (event) => this.onKey(event));
  }

  async start() {
    document.title = "Boardlab: game";
    $("watch-url").textContent = `${location.origin}/match/${this.id}`;
    $("watch-url").href = `/match/${this.id}`;
    request("GET", "/api/catalogue").then((catalogue) => {
      for (const bot of catalogue.bots ?? []) this.bots.set(bot.spec, bot.label);
      this.endings = catalogue.endings ?? {};
      this.games = catalogue.games ?? [];
      if (this.view) this.render();
    }, () => { /* bot specs stand in for their labels */ });
    try {
      this.apply(await request("GET", this.api, { matchId: this.id }));
    } catch (error) {
      if (error.status === 404) {
        $("title").textContent = "No such game";
        $("missing-text").textContent = error.message;
        $("missing").hidden = false;
        return;
      }
      this.fail(error);
    }
    this.live = new LiveConnection(this.id, Object.values(loadTokens(this.id)), {
      onView: (view) => this.apply(view),
      onThinking: (seat) => { this.thinkingSeat = seat; this.render(); },
      onChat: (message) => this.chat.take(message),
      onState: (state) => this.connection(state),
      onError: (message) => notify(message),
    });
    this.live.start();
  }

  connection(state) {
    // Lines said while the connection was down (or before it opened) are read again.
    if (state === "live" && this.linked !== "live") this.chat.reload();
    this.linked = state;
    const box = $("connection");
    box.dataset.state = state;
    box.textContent = state === "live" ? "live" : "reconnecting…";
  }

  get busy() {
    return this.requesting;
  }

  /** Marks the page while a request is under way, so people (and tests) see it is not idle. */
  set busy(value) {
    this.requesting = value;
    document.body.toggleAttribute("data-busy", value);
  }

  /** Take a new view from the server (its picture, legal decisions and everything else). */
  apply(view) {
    const old = this.view;
    const moved = !old || old.ply !== view.ply || old.status !== view.status;
    this.view = view;
    if (!view.thinking) this.thinkingSeat = null;
    else if (view.to_move !== null) this.thinkingSeat = view.to_move;
    if (!old && this.flipChoice === null) {
      // The second seat of a two-seat game sees its own side at the bottom, until flipped.
      this.flipped = view.players.length === 2 && (view.you ?? []).length === 1 && view.you[0] === 1;
      this.board.setFlipped(this.flipped);
    }
    // A turn left unfinished by a reload comes back once the page knows its seats.
    const kept = old ? null : this.keptTurn();
    if (moved) this.resetTurn();
    if (moved && this.reviewAt !== null) this.reviewAt = null;
    this.clocks.update(view);
    this.chat.update(view);
    this.render();
    this.signal.update(view.name, this.mySeat() !== null, !old);
    if (kept) this.restoreTurn(kept);
  }

  /** Read the view again (the live connection brings changes; this is for a clock at zero). */
  async refresh() {
    try {
      this.apply(await request("GET", this.api, { matchId: this.id }));
    } catch (error) {
      this.fail(error);
    }
  }

  resetTurn() {
    this.steps = [];
    this.preview = null;
    this.picker.reset(this.view?.legal ?? []);
    localStorage.removeItem(this.turnKey);
  }

  /** The steps of this match's unfinished turn that this browser kept, if any. */
  keptTurn() {
    try {
      const kept = JSON.parse(localStorage.getItem(this.turnKey) ?? "null");
      return kept && Array.isArray(kept.steps) && kept.steps.length ? kept : null;
    } catch {
      return null;
    }
  }

  /** Preview the kept steps again, if the turn is still this browser's at the same ply. */
  async restoreTurn(kept) {
    const seat = this.mySeat();
    if (seat === null || kept.seat !== seat || kept.ply !== this.view.ply || this.busy) return;
    const steps = kept.steps.map(String);
    await this.whileBusy(async () => {
      const preview = await request("POST", `${this.api}/preview`, { body: { seat, steps }, matchId: this.id });
      this.showPreview(steps, preview);
    }, () => { this.resetTurn(); this.render(); });
  }

  /** The seat this browser plays now, or null. */
  mySeat() {
    const v = this.view;
    if (!v || v.status !== "active" || v.to_move === null) return null;
    return (v.you ?? []).includes(v.to_move) ? v.to_move : null;
  }

  legalNow() {
    return this.preview?.legal ?? this.view?.legal ?? [];
  }

  render() {
    const v = this.view;
    if (!v) return;
    $("game").hidden = false;
    $("title").textContent = v.name;
    // Tests and scripts wait on these instead of on timing.
    document.body.dataset.ply = v.ply;
    document.body.dataset.status = v.status;
    $("rules-link").hidden = false;
    $("rules-link").href = `/rules/${encodeURIComponent(v.game)}`;
    // The analysis board opens at the position on the board (a reviewed one, or the latest).
    $("analysis-link").href = `/analysis?match=${encodeURIComponent(this.id)}&at=${this.reviewAt ?? v.moves.length}`;
    const you = v.you ?? [];
    $("role").textContent = you.length === 0 ? "spectator"
      : you.length === 1 ? `you play ${v.players[you[0]]?.name ?? ""}` : "hot-seat";
    // Casual is the default and goes unsaid; a rated game says so, as its end moves ratings.
    $("rated").textContent = v.rated ? "rated" : "";
    // Inside a compound turn the words describe the position the board shows: the preview's.
    const now = this.preview ?? v;
    // A finished game says so everywhere, also after a resignation (its position is not over).
    const end = v.status === "finished" ? endText(v, this.endings) : null;
    // A whole turn waiting for its confirmation is described as such, not as the next seat's.
    $("status").textContent = end ? `Game over: ${end.head}.`
      : this.preview?.turn_complete ? "Your turn is complete: confirm it, or undo a step."
        : v.bot_note ?? now.status_text;
    $("phase").textContent = end ? end.reason : now.phase ? `Phase: ${words(now.phase)}` : "";
    // On a phone the panel is under the board: this copy of the status sits above it.
    $("turn-line").textContent = $("status").textContent;
    $("board").dataset.game = v.game;
    showPlayers($("players"), { ...v, scores: now.scores }, { thinkingSeat: this.thinkingSeat, bots: this.bots });
    replace($("notes"), (now.notes ?? []).map((line) => el("li", {}, line)));
    const shown = this.reviewAt ?? v.moves.length;
    showMoves($("moves"), v, shown, (n) => this.review(n));
    showBanner($("banner"), v, end);
    showOffer($("offer"), v, (kind, accept) => this.answer(kind, accept));
    this.renderInvites();
    this.renderActions();
    // How the turn is entered, for the browser that plays it.
    const hints = this.games.find((game) => game.id === v.game)?.hints ?? {};
    const hint = this.mySeat() !== null && this.reviewAt === null ? hints[now.phase] : null;
    $("hint").hidden = !hint;
    $("hint").textContent = hint ?? "";
    if (this.reviewAt === null) {
      $("review").hidden = true;
      this.board.show(now.svg);
      if (end) this.board.caption(`Game over: ${end.head}.`);
    }
    this.renderTurn();
  }

  renderActions() {
    const v = this.view;
    const holds = (v.you ?? []).length > 0;
    const active = v.status === "active";
    const vsBot = v.players.some((p) => p.kind === "bot") && !v.players.some((p) => p.kind === "invite");
    $("resign").hidden = !(holds && active);
    $("abort").hidden = !v.may_abort;
    $("alerts-field").hidden = !(holds && active);
    $("takeback").hidden = !(holds && active && vsBot && v.moves.length > 0);
    showOfferButtons(v, $("offer-draw"), $("ask-takeback"));
    for (const b of document.querySelectorAll(".rematch")) {
      b.hidden = !(holds && !active);
      b.textContent = v.rematch ? "Join the rematch" : "Rematch";
    }
    const watch = $("watch-rematch");
    watch.hidden = holds || !v.rematch;
    if (v.rematch) watch.href = `/match/${encodeURIComponent(v.rematch)}`;
    $("notation").hidden = this.mySeat() === null;
    // Inside a compound turn a typed decision is the next step, so the example is one.
    const example = this.legalNow().find((d) => d.text)?.text;
    $("notation-input").placeholder = example ? `e.g. ${example}` : "";
  }

  renderInvites() {
    const invites = loadInvites(this.id);
    const seats = Object.keys(invites);
    $("invites").hidden = seats.length === 0;
    replace($("invite-list"), seats.map((seat) => {
      const name = this.view?.players[seat]?.name ?? `Seat ${seat}`;
      // A link already used holds nothing: say so instead of offering it again.
      if (this.view?.players[seat]?.claimed) {
        return el("li", { class: "invite-used" }, el("span", { class: "invite-seat" }, name),
          el("span", { class: "muted" }, "Link used: your friend has joined."));
      }
      const url = `${location.origin}${invites[seat]}`;
      const input = el("input", { readonly: true, value: url, "aria-label": `Invite link for seat ${seat}` });
      return el("li", {},
        el("span", { class: "invite-seat" }, name),
        input,
        el("button", { type: "button", onclick: () => this.copy(input) }, "Copy"));
    }));
  }

  async copy(input) {
    input.select();
    try {
      await navigator.clipboard.writeText(input.value);
      notify("Link copied.", "info");
    } catch {
      notify("Select the link and copy it by hand.", "info");
    }
  }

  /** Show what the user may do now: highlighted cells, choices, buttons, presets, steps. */
  renderTurn() {
    const mine = this.mySeat() !== null && this.reviewAt === null;
    const legal = mine ? this.legalNow() : [];
    const state = this.picker.state();
    if (mine) {
      const first = this.picker.clicked.length === 0;
      const next = first ? new Set(legal.filter((d) => d.targets.length).map((d) => d.targets[0])) : state.next;
      this.board.mark(this.picker.clicked, next, first);
    } else {
      this.board.mark([], []);
    }
    $("steps").hidden = !(mine && this.steps.length);
    $("steps-text").textContent = this.steps.join(" + ");
    $("confirm-turn").hidden = !this.preview?.turn_complete;
    replace($("buttons"), legal.filter((d) => d.button).map((d) => el("button", {
      type: "button", class: "decision", "data-button": d.button, title: d.text,
      onclick: () => this.decide(d),
    }, buttonLabel(d.button))));
    const presets = mine && !this.steps.length ? this.view.presets ?? [] : [];
    replace($("presets"), presets.length ? [
      el("span", { class: "muted" }, "Deploy a preset:"),
      presets.map((name) => el("button", {
        type: "button", class: "preset", "data-preset": name, onclick: () => this.preset(name),
      }, words(name))),
    ] : []);
    if (!this.choices) replace($("choices"));
  }

  onCell(id) {
    if (this.busy || this.mySeat() === null || this.reviewAt !== null) return;
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
        answer.options.map((d) => el("button", {
          type: "button", class: "choice", onclick: () => this.decide(d),
        }, d.text)),
        this.picker.state().next.size ? el("span", { class: "muted" }, "or click on to go further") : null,
      ]);
    }
    this.renderTurn();
  }

  /** Take one decision: preview it, and commit the turn once it is complete. */
  async decide(decision) {
    const seat = this.mySeat();
    if (seat === null || this.busy) return;
    this.choices = null;
    const steps = [...this.steps, decision.text];
    await this.whileBusy(async () => {
      const preview = await request("POST", `${this.api}/preview`, {
        body: { seat, steps }, matchId: this.id,
      });
      if (preview.turn_complete && steps.length === 1) {
        await this.commit({ seat, ply: this.view.ply, turn: steps[0] });
      } else {
        // A turn of several steps is shown whole and waits for "Confirm turn".
        this.showPreview(steps, preview);
        if (preview.turn_complete && this.board.keyboard) $("confirm-turn").focus();
      }
    }, () => {
      this.resetTurn();
      this.render();
    });
  }

  /** Run ``task`` with the page marked busy; a failure is shown, then ``recover`` runs. */
  async whileBusy(task, recover = () => {}) {
    this.busy = true;
    try {
      await task();
    } catch (error) {
      this.fail(error);
      recover();
    } finally {
      this.busy = false;
    }
  }

  /** Show the position inside the turn after ``steps``, as the server previewed it. */
  showPreview(steps, preview) {
    this.steps = steps;
    this.preview = preview;
    this.picker.reset(preview.legal);
    localStorage.setItem(this.turnKey, JSON.stringify({ seat: this.mySeat(), ply: this.view.ply, steps }));
    this.render();
  }

  /** Commit the whole turn shown; by keyboard, the focus goes back to the board after. */
  async confirm(byKeyboard) {
    const seat = this.mySeat();
    if (seat === null || this.busy || !this.preview?.turn_complete) return;
    await this.whileBusy(() => this.commit({ seat, ply: this.view.ply, turn: this.steps.join("+") }));
    if (byKeyboard) {
      this.board.keyboard = true;
      this.board.keepFocus();
    }
  }

  async commit(body) {
    const view = await request("POST", `${this.api}/turn`, { body, matchId: this.id });
    $("notation-input").value = "";
    if (!this.view || view.ply >= this.view.ply) this.apply(view);
  }

  async undoStep() {
    if (this.busy || !this.steps.length) return;
    const steps = this.steps.slice(0, -1);
    if (!steps.length) {
      this.resetTurn();
      this.render();
      return;
    }
    await this.whileBusy(async () => {
      const preview = await request("POST", `${this.api}/preview`, {
        body: { seat: this.mySeat(), steps }, matchId: this.id,
      });
      this.showPreview(steps, preview);
    });
  }

  async typed(text) {
    const seat = this.mySeat();
    if (!text || seat === null) return;
    const turn = [...this.steps, text].join("+");
    await this.whileBusy(() => this.commit({ seat, ply: this.view.ply, turn }));
  }

  async preset(name) {
    const seat = this.mySeat();
    if (seat === null || this.busy) return;
    await this.whileBusy(() => this.commit({ seat, ply: this.view.ply, preset: name }));
  }

  /** The seat a resign or takeback speaks for: the one to move if held, else the first held. */
  actingSeat() {
    return this.mySeat() ?? (this.view?.you ?? [])[0] ?? null;
  }

  async resign() {
    if (confirmed($("resign"), "Resign", "Confirm resign")) await this.action("resign", { seat: this.actingSeat() });
  }

  async abort() {
    if (confirmed($("abort"), "Abort game", "Confirm abort")) await this.action("abort", { seat: this.actingSeat() });
  }

  async takeback() {
    await this.action("takeback", { seat: this.actingSeat() });
  }

  async offer(kind) {
    await this.action("offer", { seat: (this.view?.you ?? [])[0], kind });
  }

  async answer(kind, accept) {
    const seat = (this.view?.you ?? [])[0];
    await this.action(accept ? "accept" : "decline", { seat, kind, ply: this.view?.ply });
  }

  async action(name, body) {
    try {
      this.apply(await request("POST", `${this.api}/${name}`, { body, matchId: this.id }));
    } catch (error) {
      this.fail(error);
    }
  }

  async rematch() {
    try {
      const answer = await request("POST", `${this.api}/rematch`, { body: {}, matchId: this.id });
      keepCreated(answer);
      location.href = `/match/${encodeURIComponent(answer.id)}`;
    } catch (error) {
      this.fail(error);
    }
  }

  async download() {
    const headers = {};
    const tokens = Object.values(loadTokens(this.id));
    if (tokens.length) headers.Authorization = `Bearer ${tokens.join(",")}`;
    try {
      const response = await fetch(`${this.api}/record`, { headers });
      if (!response.ok) {
        let message = `The server answered ${response.status}.`;
        try { message = (await response.json()).error ?? message; } catch { /* keep the status */ }
        throw new ApiError(message, response.status);
      }
      const blob = await response.blob();
      const link = el("a", { href: URL.createObjectURL(blob), download: `${this.view?.game ?? "game"}-${this.id}.txt` });
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(link.href), 10000);
    } catch (error) {
      this.fail(error);
    }
  }

  flip() {
    this.flipped = !this.flipped;
    localStorage.setItem(`boardlab:flip:${this.id}`, this.flipped ? "1" : "0");
    this.board.setFlipped(this.flipped);
  }

  /** Show the position after `at` turns (null: back to the live game). */
  async review(at) {
    const total = this.view?.moves.length ?? 0;
    if (at === null || at >= total) {
      this.reviewAt = null;
      this.render();
      return;
    }
    at = Math.max(0, at);
    try {
      const position = await request("GET", `${this.api}/position?at=${at}`, { matchId: this.id });
      this.reviewAt = at;
      this.board.show(position.svg);
      $("review").hidden = false;
      $("review-text").textContent = at === 0 ? "Start position" : `Position after move ${at} of ${total}`;
      this.render();
    } catch (error) {
      this.fail(error);
    }
  }

  step(delta) {
    const total = this.view?.moves.length ?? 0;
    this.review((this.reviewAt ?? total) + delta);
  }

  onKey(event) {
    const tag = event.target.tagName;
    if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA" || event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.key.startsWith("Arrow") && this.board.scrollFocused()) return;
    const total = this.view?.moves.length ?? 0;
    const keys = {
      ArrowLeft: () => this.step(-1),
      ArrowRight: () => this.step(1),
      Home: () => this.review(0),
      End: () => this.review(null),
      Escape: () => { this.picker.reset(this.legalNow()); this.choices = null; this.renderTurn(); },
    };
    if (!keys[event.key] || (total === 0 && event.key !== "Escape")) return;
    event.preventDefault();
    keys[event.key]();
  }

  fail(error) {
    notify(error instanceof ApiError ? error.message : "Something went wrong; reload the page.");
  }
}

/**
 * A button that acts on its second click: the first arms it (its label asks to confirm) for
 * 4 s. True when this click is the confirming one.
 */
function confirmed(button, label, confirmLabel) {
  if (button.dataset.armed !== "1") {
    button.dataset.armed = "1";
    button.textContent = confirmLabel;
    setTimeout(() => { button.dataset.armed = ""; button.textContent = label; }, 4000);
    return false;
  }
  button.dataset.armed = "";
  button.textContent = label;
  return true;
}

function buttonLabel(name) {
  return { H: "Hunker (H)", pass: "Pass", end: "End turn" }[name] ?? name;
}

const matchId = decodeURIComponent(location.pathname.split("/").filter(Boolean).at(-1) ?? "");
claimInvite(matchId).then(async (refused) => {
  await new GamePage(matchId).start();
  if (refused) notify(`${refused[0].toUpperCase()}${refused.slice(1)}.`, "info");
});
