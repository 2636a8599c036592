/** The designer's dashboard: people's games and answers per variant, bots beside them. */
import { ApiError } from "./api.js";

const playtestId = decodeURIComponent(location.pathname.split("/")[2] ?? "");
const tokenKey = `boardlab:playtest-dashboard:${playtestId}`;
const base = `/api/playtests/${encodeURIComponent(playtestId)}`;
const REFRESH_MS = 5000;
const OPEN_TEXTS = 6;
/** The variants whose free texts the reader opened: kept open when the page is drawn again. */
const openTexts = new Set();
const byId = (id) => document.getElementById(id);

function takeToken() {
  const params = new URLSearchParams(location.hash.slice(1));
  const token = params.get("token");
  if (location.hash) history.replaceState(null, "", location.pathname + location.search);
  if (token) localStorage.setItem(tokenKey, token);
  return localStorage.getItem(tokenKey);
}

const token = takeToken();

async function call(method, path, body = {}) {
  const headers = { Accept: "application/json" };
  if (token) headers.Authorization = `Bearer ${token}`;
  if (method === "POST") headers["Content-Type"] = "application/json";
  let response;
  try {
    response = await fetch(`${base}${path}`, { method, headers, body: method === "POST" ? JSON.stringify(body) : undefined });
  } catch {
    throw new ApiError("The server cannot be reached: check the connection and try again.", 0);
  }
  if (!response.ok) {
    let message = `The server answered ${response.status}.`;
    try { message = (await response.json()).error ?? message; } catch { /* not JSON */ }
    throw new ApiError(message, response.status);
  }
  return response;
}

function element(tag, attributes = {}, text = "") {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
  if (text !== "") node.textContent = text;
  return node;
}

const pct = (e) => (e && e.value !== null ? `${Math.round(100 * e.value)}% [${Math.round(100 * e.low)}, ${Math.round(100 * e.high)}]` : "–");
const num = (e) => (e && e.value !== null ? (e.low !== null && e.low !== e.high ? `${e.value.toFixed(1)} [${e.low.toFixed(1)}, ${e.high.toFixed(1)}]` : e.value.toFixed(1)) : "–");

function table(columns, rows, caption) {
  const t = element("table");
  if (caption) t.append(element("caption", { class: "help" }, caption));
  const tr = element("tr");
  for (const column of columns) tr.append(element("th", { scope: "col" }, column));
  const head = element("thead");
  head.append(tr);
  t.append(head);
  const body = element("tbody");
  for (const row of rows) {
    const line = element("tr");
    for (const cell of row) line.append(cell instanceof Node ? cell : element("td", {}, String(cell)));
    body.append(line);
  }
  t.append(body);
  return t;
}

function spread(counts) {
  const most = Math.max(1, ...counts);
  const cell = element("td");
  const bars = element("span", { class: "spread", role: "img", "aria-label": counts.map((c, i) => `${c} gave ${i + 1}`).join(", ") });
  counts.forEach((count) => {
    const column = element("span", { class: "spread-column" });
    const bar = element("span", { class: "bar" });
    bar.style.height = `${Math.round((24 * count) / most)}px`;
    column.append(bar, element("span", { class: "count" }, String(count)));
    bars.append(column);
  });
  cell.append(bars);
  return cell;
}

function outcomeTable(summary, who) {
  return table(
    ["Seat", "Wins", "Share of decided games [95%]"],
    summary.seats.map((s) => [s.seat, s.wins, pct(s.decided_share)]),
    `${who}: ${summary.games} finished games, ${summary.decided} with a single winner`,
  );
}

function variantCard(variant) {
  const card = element("section", { class: "playtest-card", "aria-labelledby": `v-${variant.label}` });
  card.append(element("h2", { id: `v-${variant.label}` }, `${variant.label}: ${variant.name}`));
  const options = Object.entries(variant.options).map(([k, v]) => `${k} = ${v}`).join(", ") || "the rules as they stand";
  card.append(element("p", { class: "help" }, `Options: ${options}`));
  const people = variant.people;
  const status = Object.entries(people.status).map(([k, v]) => `${v} ${k}`).join(", ") || "no game yet";
  card.append(element("h3", {}, "People's games"));
  card.append(element("p", {}, `Games: ${status}.`));
  card.append(outcomeTable(people, "People"));
  const endings = Object.entries(people.endings).map(([k, v]) => `${k} ${v}`).join(", ") || "–";
  card.append(element("p", {}, `No single winner: ${pct(people.draws)}. Length: ${num(people.length)} turns. Endings: ${endings}.`));
  if (people.people_against_bot) {
    const b = people.people_against_bot;
    card.append(element("p", {}, `Against the bot, people won ${b.won} of ${b.games} (${pct(b.share)}).`));
  }
  card.append(element("p", {}, `Time per decision: ${num(people.time.mean)} s on average (median ${people.time.median === null ? "–" : people.time.median.toFixed(1)} s, ${people.time.decisions} decisions).`));
  if (people.time.longest.length) {
    card.append(table(["Where players spent longest", "Seat", "Turn", "Seconds"],
      people.time.longest.map((d) => [`game ${d.match.slice(0, 6)}…, turn ${d.ply + 1}`, d.seat, d.turn ?? "(hidden)", d.seconds])));
  }
  const refused = people.refused;
  card.append(element("p", {}, `Refused turns (rule-entry errors): ${refused.count}${refused.per_game === null ? "" : ` (${refused.per_game} a game)`}.`));
  if (refused.reasons.length) card.append(table(["Why refused", "Times"], refused.reasons.map((r) => [r.reason, r.count])));
  if (refused.typed.length) {
    const typed = refused.typed.map((t) => (t.count > 1 ? `${t.turn} (${t.count} times)` : t.turn)).join(" · ");
    card.append(element("p", { class: "help" }, `Typed: ${typed}`));
  }
  card.append(element("h3", {}, "Bots' self-play"));
  if (variant.bots) {
    card.append(outcomeTable(variant.bots, `Bots (${variant.bots.bot})`));
    card.append(element("p", {}, `No single winner: ${pct(variant.bots.draws)}. Length: ${num(variant.bots.length)} turns.`));
    const notes = element("ul", { class: "notes-list" });
    for (const note of variant.notes) notes.append(element("li", {}, note));
    card.append(notes);
  } else {
    card.append(element("p", { class: "help" }, "Not run yet: use “Run the bots' self-play” above."));
  }
  const survey = variant.survey;
  card.append(element("h3", {}, `Survey (${survey.answers} answers)`));
  card.append(table(["Question", "Answers", "Mean [95%]", "Spread (1 to 5)"],
    survey.questions.map((q) => [q.question, q.answers, num(q.mean), spread(q.spread)])));
  if (survey.texts.length) {
    const texts = element("details", { class: "texts-box" });
    texts.open = survey.texts.length <= OPEN_TEXTS || openTexts.has(variant.label);
    texts.addEventListener("toggle", () => {
      if (texts.open) openTexts.add(variant.label);
      else openTexts.delete(variant.label);
    });
    texts.append(element("summary", {}, `What they wrote (${survey.texts.length})`));
    const list = element("ul", { class: "texts" });
    for (const text of survey.texts) list.append(element("li", {}, text));
    texts.append(list);
    card.append(texts);
  }
  return card;
}

/** A difference and its interval: in percentage points for a rate, as it is otherwise. */
function difference(row) {
  const scale = row.percent ? 100 : 1;
  const digits = row.percent ? 0 : 2;
  const show = (x) => (scale * x).toFixed(digits);
  const sign = row.diff >= 0 ? "+" : "";
  return `${sign}${show(row.diff)}${row.percent ? " points" : ""} [${show(row.low)}, ${show(row.high)}]`;
}

function render(data) {
  document.title = `${data.title}: dashboard — Boardlab`;
  byId("title").textContent = `${data.title}: dashboard`;
  const share = new URL(`/playtest/${data.id}`, location.href).href;
  byId("share-link").href = share;
  byId("share-link").textContent = share;
  byId("overview-text").textContent = `${data.game}, ${data.variants.length} variant(s), playtesters play ${data.opponent === "people" ? "each other" : `against the bot ${data.opponent}`}; open until ${data.ends}. Self-play: ${data.bot_games} games per variant by ${data.bot}.`;
  byId("variants").replaceChildren(...data.variants.map(variantCard));
  const level = byId("bot-level");
  if (!level.options.length) {
    for (const bot of data.bots) level.append(element("option", { value: bot }, bot));
    level.value = data.bot;
  }
  byId("bots-state").textContent = data.bots_running ? "The bots are playing…" : data.bots_failed ?? "";
  byId("run-bots").disabled = data.bots_running;
  if (data.comparison) {
    byId("comparison").hidden = false;
    byId("comparison-rows").replaceChildren(...data.comparison.rows.map((r) => {
      const line = element("tr");
      const diff = r.diff === null ? "–" : difference(r);
      for (const cell of [r.variant, r.base, r.metric, diff, r.p_adjusted.toFixed(3)]) line.append(element("td", {}, cell));
      line.append(element("td", { class: r.p_adjusted < 0.05 ? "real" : "" }, r.verdict));
      return line;
    }));
    byId("power").textContent = data.comparison.power;
  }
  byId("games-card").hidden = data.games.length === 0;
  byId("game-rows").replaceChildren(...data.games.map((g) => {
    const link = element("td");
    link.append(element("a", { href: `/match/${g.match}` }, g.match));
    return [link, g.variant, g.status, g.results.join(" / ") || "–", g.turns, g.refused];
  }).map((cells) => {
    const line = element("tr");
    for (const cell of cells) line.append(cell instanceof Node ? cell : element("td", {}, String(cell)));
    return line;
  }));
}

let shown = "";

async function refresh() {
  try {
    const text = await (await call("GET", "/dashboard")).text();
    byId("loading").hidden = true;
    byId("overview").hidden = false;
    // Drawn again only when something changed, so a reader's place and focus stay put.
    if (text !== shown) render(JSON.parse(text));
    shown = text;
    byId("live").textContent = `Updated ${new Date().toLocaleTimeString()}`;
    byId("live").dataset.state = "live";
    return true;
  } catch (error) {
    byId("loading").hidden = true;
    byId("message").textContent = error.message;
    byId("message").hidden = false;
    return error.status !== 403 && error.status !== 404;
  }
}

async function download(name) {
  try {
    const blob = await (await call("GET", `/${name}`)).blob();
    const link = element("a", { href: URL.createObjectURL(blob), download: `playtest-${playtestId}-${name}` });
    document.body.append(link);
    link.click();
    link.remove();
  } catch (error) {
    byId("message").textContent = error.message;
    byId("message").hidden = false;
  }
}

async function start() {
  for (const button of document.querySelectorAll("[data-export]")) {
    button.addEventListener("click", () => download(button.dataset.export));
  }
  byId("run-bots").addEventListener("click", async () => {
    byId("run-bots").disabled = true;
    try {
      await call("POST", "/bots", { bot: byId("bot-level").value });
      byId("bots-state").textContent = "The bots are playing…";
    } catch (error) {
      byId("bots-state").textContent = error.message;
    }
  });
  if (!(await refresh())) return;
  setInterval(refresh, REFRESH_MS);
}

start();
