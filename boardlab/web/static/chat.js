/**
 * The game page's chat: the players' channel (only the players read it) and the spectators'
 * (everyone, unless a player turned it off). Lines come over the live connection; each is
 * shown as text, with its author's seat or account name. A player may turn the spectators'
 * chat off for the match, and hide the players' chat on this page (kept in localStorage).
 */
import { request } from "./api.js";
import { el, replace } from "./dom.js";

const $ = (id) => document.getElementById(id);
const MAX_LINES = 200;

export class Chat {
  constructor(matchId, fail) {
    this.id = matchId;
    this.api = `/api/matches/${encodeURIComponent(matchId)}/chat`;
    this.fail = fail;
    this.lines = new Map();     // index -> line, in the order they were said
    this.spectatorsOpen = true;
    this.view = null;
    this.muteKey = `boardlab:chat-mute:${matchId}`;
    $("chat-form").addEventListener("submit", (event) => {
      event.preventDefault();
      this.send();
    });
    $("chat-spectators").addEventListener("change", (event) => this.setSpectators(event.target.checked));
    $("chat-mute").addEventListener("change", (event) => {
      localStorage.setItem(this.muteKey, event.target.checked ? "1" : "0");
      this.render();
    });
  }

  get muted() {
    return localStorage.getItem(this.muteKey) === "1";
  }

  /** Take a chat message of the live connection: lines, and whether spectators may talk. */
  take(message) {
    const reopened = !this.spectatorsOpen && message.spectators !== false;
    this.spectatorsOpen = message.spectators !== false;
    if (!this.spectatorsOpen) {
      for (const [index, line] of this.lines) if (line.channel === "spectators") this.lines.delete(index);
    }
    for (const line of message.lines ?? []) this.lines.set(line.index, line);
    while (this.lines.size > MAX_LINES) this.lines.delete(this.lines.keys().next().value);
    this.render();
    // The spectators' lines said before it was turned off come back with it.
    if (reopened) this.reload();
  }

  /** Read the last lines again (those of the channels this page may read). */
  async reload() {
    try {
      this.take(await request("GET", this.api, { matchId: this.id }));
    } catch (error) {
      this.fail(error);
    }
  }

  /** Follow the view: who the page plays (the channels it may use) changes with it. */
  update(view) {
    const wasPlayer = (this.view?.you ?? []).length > 0;
    this.view = view;
    const player = (view.you ?? []).length > 0;
    // A page that stops holding a seat (its invite link was claimed) forgets the players' lines.
    if (wasPlayer && !player) {
      for (const [index, line] of this.lines) if (line.channel === "players") this.lines.delete(index);
    }
    this.render();
  }

  render() {
    const view = this.view;
    if (!view) return;
    const player = (view.you ?? []).length > 0;
    const hidePlayers = player && this.muted;
    const shown = [...this.lines.values()].sort((a, b) => a.index - b.index)
      .filter((line) => !(hidePlayers && line.channel === "players"));
    const list = $("chat-lines");
    const atEnd = list.scrollTop + list.clientHeight >= list.scrollHeight - 4;
    replace(list, shown.map((line) => el("li", { class: `chat-line ${line.channel}` },
      player ? el("span", { class: "chat-channel" }, line.channel === "players" ? "players" : "spectators") : null,
      el("strong", { class: "chat-name" }, authorName(view, line)),
      el("span", { class: "chat-text" }, line.text))));
    if (atEnd) list.scrollTop = list.scrollHeight;
    $("chat-empty").hidden = shown.length > 0;
    $("chat-empty").textContent = !this.spectatorsOpen && !player
      ? "The players have turned the spectators' chat off." : "No messages yet.";
    const channel = $("chat-channel");
    channel.hidden = !player;
    channel.querySelector("option[value=spectators]").disabled = !this.spectatorsOpen;
    channel.querySelector("option[value=players]").disabled = hidePlayers;
    if (!player || channel.selectedOptions[0]?.disabled) {
      channel.value = player && !hidePlayers ? "players" : "spectators";
    }
    $("chat-form").hidden = !player && !this.spectatorsOpen;
    $("chat-settings").hidden = !player;
    $("chat-spectators").checked = this.spectatorsOpen;
    $("chat-mute").checked = this.muted;
    $("chat-label").textContent = player ? "Message" : "Message to the spectators";
  }

  async send() {
    const input = $("chat-input");
    const text = input.value.trim();
    if (!text) return;
    const channel = $("chat-channel").value;
    try {
      await request("POST", this.api, { body: { channel, text }, matchId: this.id });
      input.value = "";
    } catch (error) {
      this.fail(error);
    }
  }

  async setSpectators(open) {
    try {
      const answer = await request("POST", `${this.api}/spectators`, { body: { open }, matchId: this.id });
      this.take({ lines: [], spectators: answer.spectators });
    } catch (error) {
      this.fail(error);
      this.render();
    }
  }
}

/** Who said a line: the account's name with its seat, the seat's name, or a spectator. */
function authorName(view, line) {
  const seat = line.seat === null ? null : view.players[line.seat]?.name ?? null;
  return seat && seat !== line.name ? `${line.name} (${seat})` : line.name;
}
