/** A playtester's page: what the playtest is, the rules, then a seat in a game of a variant. */
import { request, saveTokens } from "./api.js";

const playtestId = decodeURIComponent(location.pathname.split("/")[2] ?? "");
const byId = (id) => document.getElementById(id);
const WAIT_MS = 1500;

function showMessage(text) {
  const message = byId("message");
  message.textContent = text;
  message.hidden = false;
}

/** Keep the seat's token and mark the match as this playtest's, for the survey of its page. */
function keepSeat(answer) {
  saveTokens(answer.match, { [answer.seat]: answer.token });
  localStorage.setItem(`boardlab:playtest:${answer.match}`, playtestId);
  localStorage.setItem(`boardlab:playtest-seat:${playtestId}`, JSON.stringify(answer));
}

async function waitForOthers(answer) {
  for (;;) {
    try {
      const state = await request("GET", `/api/playtests/${encodeURIComponent(playtestId)}/matches/${encodeURIComponent(answer.match)}`);
      if (state.open === 0) break;
    } catch (error) {
      showMessage(error.message);
    }
    await new Promise((resolve) => { setTimeout(resolve, WAIT_MS); });
  }
  localStorage.setItem(`boardlab:playtest-seat:${playtestId}`, JSON.stringify({ ...answer, waiting: false }));
  location.assign(`/match/${encodeURIComponent(answer.match)}`);
}

function showSeat(answer) {
  byId("intro").hidden = true;
  byId("seated").hidden = false;
  byId("game-link").href = `/match/${encodeURIComponent(answer.match)}`;
  if (answer.variant) {
    byId("variant-box").hidden = false;
    byId("variant-name").textContent = answer.variant;
    const list = byId("variant-options");
    list.replaceChildren();
    const entries = Object.entries(answer.options ?? {});
    if (!entries.length) entries.push(["", "the rules as they stand"]);
    for (const [key, value] of entries) {
      const item = document.createElement("li");
      item.textContent = key ? `${key} = ${value}` : value;
      list.append(item);
    }
    // The rules page lists the variant's options at its top, each with what it changes.
    const query = new URLSearchParams(answer.options ?? {}).toString();
    byId("variant-rules-link").href = `${byId("rules-link").getAttribute("href")}${query ? `?${query}` : ""}`;
  }
  byId("waiting").hidden = !answer.waiting;
  byId("seated-title").textContent = answer.waiting ? "Your seat is kept" : "Your game is ready";
  byId("seated-title").focus();
  if (answer.waiting) waitForOthers(answer);
}

async function join() {
  byId("join").disabled = true;
  try {
    const answer = await request("POST", `/api/playtests/${encodeURIComponent(playtestId)}/join`, { body: {} });
    keepSeat(answer);
    showSeat(answer);
  } catch (error) {
    showMessage(error.message);
    byId("join").disabled = false;
  }
}

async function start() {
  let playtest;
  try {
    playtest = await request("GET", `/api/playtests/${encodeURIComponent(playtestId)}`);
  } catch (error) {
    byId("loading").hidden = true;
    showMessage(error.message);
    return;
  }
  document.title = `${playtest.title} — Boardlab`;
  byId("title").textContent = playtest.title;
  byId("game-name").textContent = playtest.game_name;
  byId("rules-name").textContent = playtest.game_name;
  byId("summary").textContent = playtest.summary;
  byId("opponent").textContent = `against ${playtest.opponent}`;
  byId("clock").textContent = playtest.clock ? `, with a clock (${playtest.clock})` : "";
  byId("questions").textContent = String(playtest.questions);
  byId("rules-link").href = `/rules/${encodeURIComponent(playtest.game)}`;
  byId("loading").hidden = true;
  byId("intro").hidden = false;
  if (!playtest.open) {
    byId("closed").textContent = `This playtest ended on ${playtest.ends}: thank you for coming.`;
    byId("closed").hidden = false;
    byId("join").disabled = true;
  }
  byId("join").addEventListener("click", join);
  // A playtester who comes back while waiting for an opponent goes on waiting.
  try {
    const kept = JSON.parse(localStorage.getItem(`boardlab:playtest-seat:${playtestId}`) ?? "null");
    if (kept?.waiting) showSeat(kept);
  } catch {
    localStorage.removeItem(`boardlab:playtest-seat:${playtestId}`);
  }
}

start();
