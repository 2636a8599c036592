/**
 * The lobby's "Find an opponent" section: the open seeks, live over /ws/seeks, and the form to
 * post one. A seek this page posts stays open while the page does (the server removes it when
 * the socket closes); when its last seat is taken, the server says so and this page goes to the
 * match, the seek's token being its seat token there. A seek of more than two seats (Colosseum
 * Offcuts) is joined seat by seat: a join is kept the same way (its token becomes this page's
 * seat token) and left with a button or by closing the page. Rows are added, replaced and
 * removed one by one, so a focused button keeps its focus while other rows change.
 */
import { accountReady } from "./account-nav.js";
import { keepCreated, request, saveTokens } from "./api.js";
import { el, notify, replace, words } from "./dom.js";

const $ = (id) => document.getElementById(id);
const RECONNECT_MS = 2000;

const own = new Map();  // seek id -> token, the seeks this page posted
const joined = new Map();  // seek id -> token, the seeks of more seats this page joined
let games = [];
let socket = null;
let signedIn = false;
let reconnecting = false;

/** Start the section: the games a seek can be for, the form, and the live list. */
async function start() {
  let catalogue;
  try {
    catalogue = await request("GET", "/api/catalogue");
  } catch (error) {
    notify(error.message);
    return;
  }
  games = catalogue.games.filter((game) => game.min_players <= 2 && game.max_players >= 2);
  $("seek-seats").addEventListener("change", () => { $("seek-seats-help").hidden = $("seek-seats").value === "2"; });
  replace($("seek-game"), games.map((game) => el("option", { value: game.id }, game.name)));
  $("seek-game").addEventListener("change", showOptions);
  $("seek-form").addEventListener("submit", post);
  for (const radio of document.querySelectorAll("input[name=seek-mode]")) radio.addEventListener("change", showRange);
  showOptions();
  accountReady.then((account) => {
    signedIn = Boolean(account);
    $("seek-rated").disabled = !signedIn;
    $("seek-rated-help").textContent = signedIn
      ? "Rated games change every player's rating."
      : "Sign in to post or accept a rated seek.";
  });
  connect();
}

function connect() {
  socket = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws/seeks`);
  socket.addEventListener("open", () => socket.send(JSON.stringify({ tokens: tokens() })));
  socket.addEventListener("message", (event) => receive(JSON.parse(event.data)));
  socket.addEventListener("close", () => {
    reconnecting = true;
    setTimeout(connect, RECONNECT_MS);
  });
}

/** Every token this page keeps: its seeks' and its joins'. */
function tokens() {
  return [...own.values(), ...joined.values()];
}

/** After a dropped connection: a seek of this page taken meanwhile is told ("matched"); one
 * the server removed with the connection is no longer listed, and the page says so. */
function forgetGone(seeks) {
  const listed = new Set(seeks.map((seek) => seek.id));
  const gone = [...own.keys()].filter((id) => !listed.has(id));
  for (const id of gone) own.delete(id);
  if (gone.length) status("Your seek was withdrawn: the connection to the server dropped. Post it again.");
}

/** A seek this page joined that is no longer listed was withdrawn by its poster: the page
 * says so. After a dropped connection every join is gone (the server frees a seat when its
 * page's socket closes), but for one whose match started meanwhile (told first, "matched"). */
function forgetLeft(seeks, dropped) {
  if (dropped && joined.size) {
    joined.clear();
    status("Your seat in a seek was given up: the connection to the server dropped. Join again.");
    return;
  }
  const listed = new Set(seeks.map((seek) => seek.id));
  const gone = [...joined.keys()].filter((id) => !listed.has(id));
  for (const id of gone) joined.delete(id);
  if (gone.length) status("A seek you joined was withdrawn before all its seats were taken.");
}

function receive(message) {
  if (message.type === "seeks") {
    // The first list after a reconnection says which of this page's seeks are gone.
    if (reconnecting) forgetGone(message.seeks);
    forgetLeft(message.seeks, reconnecting);
    reconnecting = false;
    showSeeks(message.seeks);
  }
  else if (message.type === "matched") {
    const token = own.get(message.seek) ?? joined.get(message.seek);
    if (!token) return;
    const posted = own.delete(message.seek);
    joined.delete(message.seek);
    saveTokens(message.match, { [message.seat]: token });
    status(posted ? "Your seek was accepted: the game starts." : "All seats are taken: the game starts.");
    location.href = `/match/${encodeURIComponent(message.match)}`;
  } else if (message.type === "error") notify(message.error);
}

function status(text) {
  $("seek-status").textContent = text;
}

/** Update the table row by row: rows of seeks still open stay as they are, but for a seek
 * whose taken seats, or this page's place in it, changed. */
function showSeeks(seeks) {
  const body = $("seek-list");
  const wanted = new Map(seeks.map((seek) => [seek.id, seek]));
  for (const row of [...body.rows]) {
    const seek = wanted.get(row.dataset.seek);
    if (!seek) row.remove();
    else if (row.dataset.taken !== String(seek.taken) || (row.dataset.joined === "yes") !== joined.has(seek.id)) {
      row.replaceWith(seekRow(seek));
    }
  }
  const shown = new Set([...body.rows].map((row) => row.dataset.seek));
  for (const seek of seeks) if (!shown.has(seek.id)) body.append(seekRow(seek));
  $("seeks-empty").hidden = seeks.length > 0;
  $("seeks-table").hidden = seeks.length === 0;
  $("seeks-count").textContent = seeks.length === 1 ? "1 open seek" : `${seeks.length} open seeks`;
}

function seekRow(seek) {
  const mine = own.has(seek.id);
  const member = joined.has(seek.id);
  const seats = seek.seats ?? 2;
  const options = Object.entries(seek.options).filter(([key]) => key !== "players")
    .map(([key, value]) => `${words(key)} ${value}`).join(", ");
  const range = seek.min_rating === null && seek.max_rating === null ? ""
    : ` (${seek.min_rating ?? "any"}–${seek.max_rating ?? "any"})`;
  const label = `${seek.name}'s ${seek.game_name} seek`;
  let action;
  if (mine) action = el("button", { type: "button", onclick: () => withdraw(seek.id, own) }, "Withdraw");
  else if (member) {
    action = el("button", { type: "button", onclick: () => withdraw(seek.id, joined),
      "aria-label": `Leave ${label}` }, "Leave");
  } else {
    const verb = seats > 2 ? "Join" : "Accept";
    action = el("button", {
      type: "button", class: "primary", onclick: (event) => accept(seek, event.currentTarget),
      "aria-label": `${verb} ${label}`,
    }, verb);
  }
  const filled = seats > 2
    ? el("span", { class: "seek-seats" }, `${seek.taken} of ${seats} seats${member ? " (you joined)" : ""}`)
    : null;
  return el("tr", { "data-seek": seek.id, "data-mine": mine ? "yes" : null,
    "data-joined": member ? "yes" : null, "data-taken": String(seek.taken ?? 1) },
    el("td", {}, mine ? `${seek.name} (you)` : seek.name,
      seek.rating ? el("span", { class: "muted" }, ` ${seek.rating}`) : null),
    el("td", {}, seek.game_name, options ? el("span", { class: "muted" }, ` — ${options}`) : null,
      el("span", { class: "seek-clock" }, seek.clock), filled),
    el("td", {}, seek.rated ? `Rated${range}` : "Casual"),
    el("td", {}, action));
}

async function accept(seek, button) {
  button.disabled = true;
  try {
    const answer = await request("POST", `/api/seeks/${encodeURIComponent(seek.id)}/accept`,
      { body: { tokens: tokens() } });
    if (answer.joined) {
      // A seat of a seek with more: kept by this page until the last seat is taken.
      joined.set(answer.joined, answer.token);
      if (socket?.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ tokens: [answer.token] }));
      $("seek-list").querySelector(`[data-seek="${CSS.escape(answer.joined)}"]`)?.replaceWith(seekRow(answer.seek));
      status(`You joined ${seek.name}'s seek: the game starts when all ${seek.seats} seats are taken. Keep this page open.`);
      return;
    }
    keepCreated(answer);
    location.href = `/match/${encodeURIComponent(answer.id)}`;
  } catch (error) {
    notify(error.message);
    button.disabled = false;
  }
}

/** Withdraw this page's seek, or leave a seek it joined (``kept``: the map holding it). */
async function withdraw(id, kept) {
  const token = kept.get(id);
  if (!token) return;
  try {
    await request("POST", "/api/seeks/withdraw", { body: { tokens: [token] } });
    kept.delete(id);
    status(kept === own ? "Seek withdrawn." : "You left the seek.");
  } catch (error) {
    notify(error.message);
  }
}

function chosenGame() {
  return games.find((game) => game.id === $("seek-game").value) ?? games[0];
}

/** The chosen game's everyday options, and its seats where it is played by more than two. */
function showOptions() {
  const game = chosenGame();
  const options = (game?.options ?? []).filter((option) => !option.advanced && option.key !== "players");
  replace($("seek-options"), options.map(optionField));
  const most = game?.max_players ?? 2;
  const seats = [];
  for (let count = 2; count <= most; count += 1) {
    seats.push(el("option", { value: String(count) }, count === 2 ? "2 (you and one other)" : `${count} (you and ${count - 1} others)`));
  }
  replace($("seek-seats"), seats);
  $("seek-seats-field").hidden = most <= 2;
  $("seek-seats-help").hidden = true;
}

function optionField(option) {
  const id = `seek-option-${option.key}`;
  let input;
  if (option.kind === "bool") {
    input = el("input", { type: "checkbox", id, name: option.key, checked: option.default === true });
  } else if (option.choices && option.choices.length) {
    input = el("select", { id, name: option.key }, option.choices.map((choice) =>
      el("option", { value: String(choice), selected: choice === option.default }, String(choice))));
  } else {
    input = el("input", { type: option.kind === "int" ? "number" : "text", id, name: option.key,
      value: String(option.default ?? ""), maxlength: 200 });
  }
  input.dataset.default = JSON.stringify(option.default);
  input.dataset.kind = option.kind;
  return el("div", { class: `field field-${option.kind}` },
    el("label", { for: id }, option.label ?? words(option.key)), input);
}

function optionValues() {
  const values = {};
  for (const input of $("seek-options").querySelectorAll("input, select")) {
    let value = input.type === "checkbox" ? input.checked : input.value.trim();
    if (input.dataset.kind === "int" && /^-?\d+$/.test(value)) value = Number.parseInt(value, 10);
    if (value === "") continue;
    if (String(value) !== String(JSON.parse(input.dataset.default))) values[input.name] = value;
  }
  return values;
}

function rated() {
  return $("seek-rated").checked;
}

function showRange() {
  $("seek-range").hidden = !rated();
}

function rating(id) {
  const text = $(id).value.trim();
  return text === "" ? null : Number.parseInt(text, 10);
}

function clockValue() {
  const value = $("seek-clock").value;
  if (!value) return null;
  if (value.endsWith("d")) return { days: Number.parseInt(value, 10) };
  const [base, increment] = value.split("+").map((n) => Number.parseInt(n, 10));
  return { base, increment };
}

async function post(event) {
  event.preventDefault();
  const body = { game: chosenGame().id, options: optionValues(), clock: clockValue(), rated: rated() };
  if (!$("seek-seats-field").hidden) body.options.players = Number.parseInt($("seek-seats").value, 10);
  if (rated()) {
    body.min_rating = rating("seek-min");
    body.max_rating = rating("seek-max");
  }
  const button = event.submitter;
  if (button) button.disabled = true;
  try {
    const answer = await request("POST", "/api/seeks", { body });
    own.set(answer.id, answer.token);
    // Listed already (the list can come before this answer): shown as this page's own now.
    $("seek-list").querySelector(`[data-seek="${CSS.escape(answer.id)}"]`)?.replaceWith(seekRow(answer.seek));
    if (socket?.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ tokens: [answer.token] }));
    status("Your seek is open: it stays in the list while this page is open.");
  } catch (error) {
    notify(error.message);
  } finally {
    if (button) button.disabled = false;
  }
}

start();
