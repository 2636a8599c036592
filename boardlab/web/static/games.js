/** The finished games: searched by game, player, result, dates and options, a page at a time;
 * the search is kept in the address so that it can be shared. */
import "./account-nav.js";
import { request } from "./api.js";
import { el, notify, replace } from "./dom.js";
import { gameLink, playersText } from "./profile.js";

const $ = (id) => document.getElementById(id);
const FIELDS = ["game", "player", "result", "from", "to", "options"];
const PAGE = 20;
let next = null;
let shown = 0;

async function start() {
  try {
    const catalogue = await request("GET", "/api/catalogue");
    for (const game of catalogue.games) $("game").append(el("option", { value: game.id }, game.name));
  } catch (error) {
    notify(error.message);
  }
  const params = new URLSearchParams(location.search);
  for (const field of FIELDS) $(field).value = params.get(field) ?? "";
  $("search-form").addEventListener("submit", (event) => { event.preventDefault(); search(); });
  $("search-form").addEventListener("reset", () => setTimeout(search));
  $("more").addEventListener("click", () => load(true));
  search();
}

function query() {
  const params = new URLSearchParams();
  for (const field of FIELDS) {
    const value = $(field).value.trim();
    if (value) params.set(field, value);
  }
  return params;
}

function search() {
  const params = query();
  history.replaceState(null, "", params.toString() ? `/games?${params}` : "/games");
  next = null;
  shown = 0;
  replace($("results"));
  load(false);
}

async function load(more) {
  const params = query();
  params.set("limit", String(PAGE));
  if (more && next) params.set("after", next);
  let answer;
  try {
    answer = await request("GET", `/api/games?${params}`);
  } catch (error) {
    $("count").textContent = error.message;
    return;
  }
  next = answer.next;
  shown += answer.games.length;
  $("more").hidden = !next;
  $("results").append(...answer.games.map(row));
  $("count").textContent = shown ? `${shown} game${shown === 1 ? "" : "s"} shown${next ? ", more below" : ""}.`
    : "No finished game matches this search.";
  if (more) $("results").lastElementChild?.querySelector("a")?.focus();
}

function row(game) {
  const mode = game.imported ? "imported" : game.rated ? "rated" : "casual";
  return el("tr", { "data-game": game.id },
    el("td", {}, new Date(game.ended).toLocaleString(undefined, { dateStyle: "short", timeStyle: "short" })),
    el("td", {}, game.game_name, " ", el("span", { class: "mode" }, mode)),
    el("td", {}, playersText(game)),
    el("td", {}, game.result),
    el("td", {}, game.clock),
    el("td", {}, gameLink(game)));
}

start();
