/** The lobby: the games with their pictures, the new-game form, and the games on the server. */
import { accountReady } from "./account-nav.js";
import { heldMatches, keepCreated, request } from "./api.js";
import { el, notify, replace, svgNode, words } from "./dom.js";

const $ = (id) => document.getElementById(id);
const REFRESH_MS = 5000;
const BOTS_POLL_MS = 2000;
const MAX_MINE = 100;  // the server's limit of one "my games" request

let catalogue = { games: [], bots: [] };
let chosen = null;
let account = null;  // the signed-in account: only it may start a rated game

async function start() {
  try {
    catalogue = await request("GET", "/api/catalogue");
  } catch (error) {
    notify(error.message);
    return;
  }
  showGames();
  for (const game of catalogue.games) $("filter-game").append(el("option", { value: game.id }, game.name));
  $("filter-game").addEventListener("change", refresh);
  $("filter-status").addEventListener("change", refresh);
  $("create-form").addEventListener("submit", create);
  $("options").addEventListener("input", seatsFollowOption);
  $("create-cancel").addEventListener("click", () => { $("create").hidden = true; });
  refresh();
  setInterval(refresh, REFRESH_MS);
  watchBots();
  account = await accountReady;
}

/** Say while the server prepares its bots (the first start after an install compiles them). */
async function watchBots() {
  let bots = null;
  try {
    ({ bots } = await request("GET", "/api/health"));
  } catch {
    return;
  }
  $("bots-status").hidden = bots.ready;
  if (bots.ready) return;
  $("bots-status").textContent = "Preparing the bots (after an install, the first start "
    + "compiles them for a few minutes): a bot's first move waits until they are ready.";
  setTimeout(watchBots, BOTS_POLL_MS);
}

function showGames() {
  replace($("games"), catalogue.games.map((game) => el("li", { class: "game-card", "data-game": game.id },
    el("div", { class: "picture" }, game.picture ? svgNode(game.picture) : null),
    el("div", { class: "card-text" },
      el("h3", {}, game.name),
      el("p", { class: "players-count" }, game.min_players === game.max_players
        ? `${game.min_players} players` : `${game.min_players}–${game.max_players} players`),
      el("p", { class: "summary" }, game.summary),
      game.engine === "compiled" ? null : el("p", { class: "engine-note muted" },
        "Bots run on the reference engine here: they think slower (install the fast extra)."),
      el("div", { class: "card-actions" },
        el("button", { type: "button", class: "primary new-game", onclick: () => choose(game) }, `New ${game.name} game`),
        el("a", { class: "rules-link", href: `/rules/${encodeURIComponent(game.id)}`, "aria-label": `${game.name} rules` }, "Rules"))))));
}

/** Open the form for a game: its options from the schema and one row per seat. */
function choose(game) {
  chosen = game;
  $("create-title").textContent = `New game of ${game.name}`;
  const advanced = game.options.filter((option) => option.advanced);
  replace($("options"),
    game.options.filter((option) => !option.advanced).map(optionField),
    advanced.length ? el("details", { class: "advanced" },
      el("summary", {}, "Advanced: rule variants, limits and seeds"),
      advanced.map(optionField)) : null);
  showSeats();
  $("create").hidden = false;
  $("create").scrollIntoView({ behavior: "smooth", block: "start" });
  $("create").querySelector("select, input, button")?.focus({ preventScroll: true });
}

function optionField(option) {
  const id = `option-${option.key}`;
  let input;
  if (option.kind === "bool") {
    input = el("input", { type: "checkbox", id, name: option.key, checked: option.default === true });
  } else if (option.choices && option.choices.length) {
    input = el("select", { id, name: option.key }, option.choices.map((choice) =>
      el("option", { value: String(choice), selected: choice === option.default }, String(choice))));
  } else if (option.kind === "int") {
    const given = typeof option.default === "number";
    input = el("input", {
      type: "number", id, name: option.key, value: given ? option.default : "", min: option.min,
      max: option.max, step: 1, required: given, placeholder: given ? null : "not set",
    });
  } else {
    input = el("input", { type: "text", id, name: option.key, value: String(option.default ?? ""), maxlength: 200 });
  }
  input.dataset.kind = option.kind;
  input.dataset.default = JSON.stringify(option.default);
  return el("div", { class: `field field-${option.kind}` },
    el("label", { for: id }, option.label ?? words(option.key)),
    input,
    el("p", { class: "help" }, option.help));
}

/** The number of seats: the `players` option where the game has one, else its default seats. */
function seatCount() {
  const players = $("option-players");
  const n = players ? Number.parseInt(players.value, 10) : NaN;
  if (Number.isInteger(n) && n >= chosen.min_players && n <= chosen.max_players) return n;
  return chosen.player_names.length;
}

function seatsFollowOption(event) {
  if (event.target.id === "option-players") showSeats();
}

function showSeats() {
  const old = [...$("seats").querySelectorAll("select")].map((s) => s.value);
  const n = seatCount();
  const bots = catalogue.bots.length ? catalogue.bots : [{ spec: "random", label: "Random" }];
  const rows = [];
  for (let seat = 0; seat < n; seat += 1) {
    const name = chosen.player_names[seat] ?? `P${seat + 1}`;
    const level = bots.find((bot) => bot.spec.startsWith("level:")) ?? bots[0];
    const fallback = seat === 0 ? "human" : `bot:${level.spec}`;
    const select = el("select", { id: `seat-${seat}`, name: `seat-${seat}` },
      el("option", { value: "human" }, "You (this browser)"),
      el("option", { value: "invite" }, "A friend (invite link)"),
      el("optgroup", { label: "Bot" }, bots.map((bot) => el("option", { value: `bot:${bot.spec}` },
        botLabel(bot, n)))));
    select.value = old[seat] ?? fallback;
    rows.push(el("div", { class: "field seat-row" }, el("label", { for: `seat-${seat}` }, name), select));
  }
  const rated = $("rated")?.checked === true;
  replace($("seats"), rows, ratedField(rated));
  if (rated) ratedSeats();
}

/** The "Rated game" choice: open to a signed-in player, whose seat it makes theirs and the
 * others invited (the server refuses any other rated match, and says why). */
function ratedField(checked) {
  const box = el("input", { type: "checkbox", id: "rated", name: "rated", "aria-describedby": "rated-help" });
  box.checked = checked && account !== null;
  box.disabled = account === null;
  box.addEventListener("change", () => { if (box.checked) ratedSeats(); });
  const help = account === null
    ? "Sign in to play rated games: ratings belong to accounts."
    : "You take the first seat and invite the others, who sign in to join. The result changes "
      + "each player's rating for this game and speed.";
  // Styled here: the lobby's stylesheet lays fields out in two columns, too narrow for this.
  return el("div", { class: "rated-field", style: "display: grid; gap: .25rem; margin-top: .7rem" },
    el("label", { for: "rated", style: "display: flex; gap: .45rem; align-items: center; font-weight: 500" },
      box, "Rated game"),
    el("p", { class: "help", id: "rated-help", style: "margin: 0; font-size: .82rem; color: var(--muted)" }, help,
      account === null ? null : [" ", el("a", { href: `/players/${encodeURIComponent(account.name)}` }, "Your ratings")]));
}

function ratedSeats() {
  $("seats").querySelectorAll("select").forEach((select, seat) => {
    select.value = seat === 0 ? "human" : "invite";
  });
}

/** A bot's label with its measured rating at this seat count, where a tournament tells it apart
 * from the level below, else with the ladder's result against that level, where one was measured. */
function botLabel(bot, seats) {
  const rating = chosen.ratings?.[String(seats)]?.[bot.spec];
  if (typeof rating === "number") return `${bot.label} (rating ${Math.round(rating)})`;
  const ladder = chosen.ladder?.[String(seats)]?.[bot.spec];
  return typeof ladder === "string" ? `${bot.label} (${ladder})` : bot.label;
}

function optionValues() {
  const values = {};
  for (const input of $("options").querySelectorAll("input, select")) {
    const fallback = JSON.parse(input.dataset.default);
    let value;
    if (input.type === "checkbox") value = input.checked;
    else if (input.dataset.kind === "int" && /^-?\d+$/.test(input.value.trim())) value = Number.parseInt(input.value, 10);
    else value = input.value.trim();
    // An empty box leaves an option to the server (e.g. a seed drawn when not given).
    if (value === "") continue;
    if (value !== fallback && String(value) !== String(fallback)) values[input.name] = value;
  }
  return values;
}

async function create(event) {
  event.preventDefault();
  const seats = [...$("seats").querySelectorAll("select")].map((select) => select.value.startsWith("bot:")
    ? { kind: "bot", bot: select.value.slice(4) } : { kind: select.value });
  const button = event.submitter;
  if (button) button.disabled = true;
  try {
    const answer = await request("POST", "/api/matches", {
      body: { game: chosen.id, options: optionValues(), seats, clock: clockValue(), rated: $("rated")?.checked === true },
    });
    keepCreated(answer);
    location.href = `/match/${encodeURIComponent(answer.id)}`;
  } catch (error) {
    notify(error.message);
  } finally {
    if (button) button.disabled = false;
  }
}

async function refresh() {
  refreshMine();
  const query = new URLSearchParams({ limit: "50" });
  if ($("filter-game").value) query.set("game", $("filter-game").value);
  if ($("filter-status").value) query.set("status", $("filter-status").value);
  let answer;
  try {
    answer = await request("GET", `/api/matches?${query}`);
  } catch (error) {
    notify(error.message);
    return;
  }
  const names = new Map(catalogue.games.map((g) => [g.id, g.name]));
  $("matches-empty").hidden = answer.matches.length > 0;
  replace($("matches"), answer.matches.map((m) => el("tr", { "data-match": m.id },
    el("td", {}, names.get(m.game) ?? m.game),
    el("td", {}, (m.players ?? []).map(playerText).join(" · ")),
    el("td", { class: "num" }, String(m.plies ?? "")),
    el("td", {}, m.status === "finished" ? resultText(m.result) : progressText(m)),
    el("td", {}, when(m.updated)),
    el("td", {}, el("a", { class: "button", href: `/match/${encodeURIComponent(m.id)}` },
      m.status === "finished" ? "Review" : "Open")))));
}

/** The games this browser (by the tokens it keeps) or the signed-in account holds a seat in,
 * its turns first. */
async function refreshMine() {
  const held = Object.fromEntries(Object.entries(heldMatches()).slice(0, MAX_MINE));
  // A signed-in player's account holds games too, whatever this browser keeps.
  if (!Object.keys(held).length && !(await accountReady)) return;
  let answer;
  try {
    answer = await request("POST", "/api/mine", { body: { matches: held } });
  } catch (error) {
    notify(error.message);
    return;
  }
  const names = new Map(catalogue.games.map((g) => [g.id, g.name]));
  const turns = answer.matches.filter((m) => m.state === "your turn").length;
  document.title = turns ? `● Your turn (${turns}) — Boardlab` : "Boardlab";
  $("favicon").href = turns ? "/static/favicon-turn.svg" : "/static/favicon.svg";
  $("mine").hidden = answer.matches.length === 0;
  replace($("mine-list"), answer.matches.map((m) => el("tr", { "data-match": m.id, "data-state": m.state },
    el("td", {}, names.get(m.game) ?? m.game),
    el("td", {}, m.you.map((seat) => m.players[seat]).join(", ")),
    el("td", { class: "num" }, String(m.plies)),
    el("td", {}, m.state === "your turn" ? el("strong", { class: "your-turn" }, "Your turn")
      : m.state === "finished" ? resultText(m.result) : m.state),
    el("td", {}, when(m.updated)),
    el("td", {}, el("a", { class: m.state === "your turn" ? "button primary" : "button", href: `/match/${encodeURIComponent(m.id)}` },
      m.state === "finished" ? "Review" : m.state === "your turn" ? "Play" : "Open")))));
}

function playerText(player) {
  if (typeof player === "string") return player;
  const bot = catalogue.bots.find((b) => b.spec === player.bot);
  return player.kind === "bot" ? `${player.name} (${bot?.label ?? player.bot ?? "bot"})` : player.name ?? "";
}

/** The form's time control as the API takes it: "180+2", "3d" or none. */
function clockValue() {
  const value = $("clock").value;
  if (!value) return null;
  if (value.endsWith("d")) return { days: Number.parseInt(value, 10) };
  const [base, increment] = value.split("+").map((n) => Number.parseInt(n, 10));
  return { base, increment };
}

/** A game in progress, with its clock and, for days per move, when the next move is due. */
function progressText(m) {
  if (m.abandoned) return "abandoned";
  if (!m.clock) return "in progress";
  const due = m.deadline && m.clock.includes("day") ? `, move due ${when(m.deadline)}` : "";
  return `in progress (${m.clock}${due})`;
}

function resultText(result) {
  if (!result) return "finished";
  return typeof result === "string" ? result : result.text ?? "finished";
}

function when(stamp) {
  if (!stamp) return "";
  const date = new Date(typeof stamp === "number" ? stamp * 1000 : stamp);
  return Number.isNaN(date.getTime())
    ? String(stamp) : date.toLocaleString(undefined, { dateStyle: "short", timeStyle: "short" });
}

start();
