/** A player's page: ratings with their uncertainty, the rating history drawn as inline SVG,
 * games by game, current and latest games; on your own page, your records and an import. */
import { accountReady } from "./account-nav.js";
import { request } from "./api.js";
import { el, notify, replace } from "./dom.js";

const $ = (id) => document.getElementById(id);
const SVG = "http://www.w3.org/2000/svg";
const SPEEDS = { realtime: "Real time", correspondence: "Correspondence" };
const name = decodeURIComponent(location.pathname.split("/").pop() ?? "");

async function start() {
  let player;
  try {
    player = await request("GET", `/api/players/${encodeURIComponent(name)}`);
  } catch (error) {
    $("loading").hidden = true;
    $("missing").hidden = false;
    $("missing-text").textContent = error.message;  // the name is only ever text
    document.title = "No such player — Boardlab";
    return;
  }
  $("loading").hidden = true;
  $("player").hidden = false;
  document.title = `${player.name} — Boardlab`;
  $("title").textContent = player.name;
  $("since").textContent = `Playing since ${player.since}.`;
  $("provisional-games").textContent = String(player.provisional_games);
  showRatings(player);
  showHistory(player);
  showGames(player);
  showCurrent(player);
  showRecent(player);
  $("all-games").href = `/games?player=${encodeURIComponent(player.name)}`;
  const account = await accountReady;
  if (account && account.name.toLowerCase() === player.name.toLowerCase()) {
    $("own").hidden = false;
    $("import-form").addEventListener("submit", importRecord);
  }
}

/** A rating as read: "1605 ± 645", the "?" of a provisional one explained to screen readers. */
function ratingText(rating) {
  const text = `${rating.rating} ± ${rating.interval}`;
  return rating.provisional
    ? [text, el("abbr", { title: "provisional", class: "provisional" }, "?")]
    : text;
}

function showRatings(player) {
  $("ratings-empty").hidden = player.ratings.length > 0;
  $("ratings-table").hidden = player.ratings.length === 0;
  replace($("ratings"), player.ratings.map((r) => el("tr", { "data-game": r.game, "data-speed": r.speed },
    el("td", {}, r.game_name),
    el("td", {}, SPEEDS[r.speed] ?? r.speed),
    el("td", { class: "rating" }, ratingText(r)),
    el("td", { class: "num" }, String(r.games)))));
}

/** One graph per game and speed, its first point the starting rating. */
function showHistory(player) {
  const series = new Map();
  for (const change of player.history) {
    const key = `${change.game} ${change.speed}`;
    if (!series.has(key)) series.set(key, { ...change, points: [player.start] });
    series.get(key).points.push(change);
  }
  $("history-section").hidden = series.size === 0;
  const names = new Map(player.ratings.map((r) => [r.game, r.game_name]));
  replace($("history"), [...series.values()].map((s) => {
    const title = `${names.get(s.game) ?? s.game}, ${(SPEEDS[s.speed] ?? s.speed).toLowerCase()}`;
    const last = s.points[s.points.length - 1];
    const summary = `${title}: from ${player.start.rating} to ${last.rating} over ${s.points.length - 1} rated games`;
    return el("figure", { class: "history-graph", "data-series": `${s.game} ${s.speed}` },
      graph(s.points, summary), el("figcaption", {}, summary));
  }));
}

/** The ratings (line) and their uncertainty (band) after each rated game, as inline SVG. */
function graph(points, label) {
  const [w, h, pad] = [480, 160, 28];
  const lo = Math.min(...points.map((p) => p.rating - p.interval));
  const hi = Math.max(...points.map((p) => p.rating + p.interval));
  const x = (i) => pad + (i * (w - 2 * pad)) / Math.max(1, points.length - 1);
  const y = (v) => h - pad - ((v - lo) * (h - 2 * pad)) / Math.max(1, hi - lo);
  const line = (f) => points.map((p, i) => `${x(i).toFixed(1)},${y(f(p)).toFixed(1)}`);
  const band = [...line((p) => p.rating + p.interval), ...line((p) => p.rating - p.interval).reverse()];
  return svg("svg", { viewBox: `0 0 ${w} ${h}`, role: "img", "aria-label": label, class: "graph" },
    svg("polygon", { points: band.join(" "), class: "graph-band" }),
    svg("polyline", { points: line((p) => p.rating).join(" "), class: "graph-line" }),
    points.map((p, i) => svg("circle", { cx: x(i), cy: y(p.rating), r: 3.5, class: "graph-point" })),
    svg("text", { x: 4, y: pad - 8, class: "graph-axis" }, String(Math.round(hi))),
    svg("text", { x: 4, y: h - 8, class: "graph-axis" }, String(Math.round(lo))));
}

function svg(tag, attrs, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  for (const child of children.flat()) node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  return node;
}

function showGames(player) {
  $("games-empty").hidden = player.games.length > 0;
  $("games").closest("table").hidden = player.games.length === 0;
  replace($("games"), player.games.map((g) => el("tr", { "data-game": g.game },
    el("td", {}, g.game_name),
    el("td", { class: "num" }, String(g.win)),
    el("td", { class: "num" }, String(g.loss)),
    el("td", { class: "num" }, String(g.draw)),
    el("td", {}, el("a", {
      href: `/games?player=${encodeURIComponent(player.name)}&game=${encodeURIComponent(g.game)}`,
      "aria-label": `${player.name}'s ${g.game_name} games`,
    }, "Games")))));
}

function showCurrent(player) {
  $("current-empty").hidden = player.current.length > 0;
  $("current").closest("table").hidden = player.current.length === 0;
  replace($("current"), player.current.map((m) => el("tr", { "data-match": m.id },
    el("td", {}, m.game_name),
    el("td", {}, m.plays.join(", ")),
    el("td", {}, m.to_move ?? ""),
    el("td", {}, m.rated ? "Rated" : "Casual"),
    el("td", {}, el("a", { class: "button", href: `/match/${encodeURIComponent(m.id)}` }, "Watch")))));
}

function showRecent(player) {
  $("recent-empty").hidden = player.recent.length > 0;
  $("recent").closest("table").hidden = player.recent.length === 0;
  replace($("recent"), player.recent.map((g) => el("tr", { "data-game": g.id },
    el("td", {}, new Date(g.ended).toLocaleDateString()),
    el("td", {}, g.game_name),
    el("td", {}, playersText(g)),
    el("td", {}, g.result),
    el("td", {}, gameLink(g)))));
}

/** "Romans: Ada (win) · Gauls: guest (loss)": names are links to their pages, never markup. */
export function playersText(game) {
  return game.players.map((p, i) => [i ? " · " : "", `${p.side}: `,
    p.name ? el("a", { href: `/players/${encodeURIComponent(p.name)}` }, p.name) : p.player,
    ` (${p.result})`]);
}

/** A finished game's link: its page, or an imported game's record. */
export function gameLink(game) {
  return game.imported
    ? el("a", { class: "button", href: `/api/games/${encodeURIComponent(game.id)}/record` }, "Record")
    : el("a", { class: "button", href: `/match/${encodeURIComponent(game.id)}` }, "Review");
}

async function importRecord(event) {
  event.preventDefault();
  const file = $("import-file").files?.[0];
  const status = $("import-status");
  if (!file) {
    status.textContent = "Choose a record file first.";
    $("import-file").focus();
    return;
  }
  try {
    const record = await file.text();
    const answer = await request("POST", "/api/account/import", {
      body: { record, seat: Number.parseInt($("import-seat").value, 10) },
    });
    status.textContent = `Imported: ${answer.result}.`;
    location.reload();
  } catch (error) {
    status.textContent = error.message;
    notify(error.message);
  }
}

if (document.body.classList.contains("profile-page")) start();
