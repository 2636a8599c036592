/**
 * The survey of a playtest match, on its game page: shown when the game ends to each seat
 * this browser holds that has not answered yet (the server takes one answer per seat). A
 * match this browser joined through no playtest page costs nothing: no request is made.
 */
import { request } from "./api.js";

const matchId = decodeURIComponent(location.pathname.split("/")[2] ?? "");
const playtestId = localStorage.getItem(`boardlab:playtest:${matchId}`);

function element(tag, attributes = {}, text = "") {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
  if (text) node.textContent = text;
  return node;
}

function finished() {
  return new Promise((resolve) => {
    const check = () => document.body?.dataset.status === "finished";
    if (check()) { resolve(); return; }
    const watcher = new MutationObserver(() => {
      if (check()) { watcher.disconnect(); resolve(); }
    });
    watcher.observe(document.documentElement, { attributes: true, subtree: true, attributeFilter: ["data-status"] });
  });
}

function surveyForm(path, info, seat) {
  const section = element("section", { id: "survey", class: "survey", "aria-labelledby": "survey-title" });
  section.append(element("h2", { id: "survey-title", tabindex: "-1" }, "Playtest survey"));
  const intro = element("p", { class: "muted" }, "Thank you for playing! Every answer is optional; the designer reads them all.");
  section.append(intro);
  const form = element("form", { id: "survey-form", novalidate: "" });
  info.questions.forEach((question, number) => {
    const fieldset = element("fieldset");
    fieldset.append(element("legend", {}, question));
    const scale = element("div", { class: "scale" });
    for (let score = 1; score <= 5; score += 1) {
      const label = element("label");
      label.append(element("input", { type: "radio", name: `q${number}`, value: String(score) }));
      label.append(document.createTextNode(String(score)));
      scale.append(label);
    }
    fieldset.append(scale);
    form.append(fieldset);
  });
  form.append(element("label", { for: "survey-text" }, "Anything else? (what was unclear, what you liked, what you would change)"));
  form.append(element("textarea", { id: "survey-text", maxlength: "2000" }));
  const status = element("p", { id: "survey-status", role: "status" });
  const send = element("button", { type: "submit", class: "primary" }, "Send my answers");
  form.append(send, status);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const scores = info.questions.map((_, number) => {
      const chosen = form.querySelector(`input[name="q${number}"]:checked`);
      return chosen ? Number(chosen.value) : null;
    });
    send.disabled = true;
    try {
      await request("POST", path, { body: { seat, scores, text: form.querySelector("textarea").value }, matchId });
      intro.remove();
      form.replaceWith(element("p", { id: "survey-thanks", role: "status" }, "Thank you: your answers were sent."));
    } catch (error) {
      status.textContent = error.message;
      send.disabled = false;
    }
  });
  section.append(form);
  return section;
}

async function start() {
  await finished();
  const path = `/api/playtests/${encodeURIComponent(playtestId)}/matches/${encodeURIComponent(matchId)}/survey`;
  let info;
  try {
    info = await request("GET", path, { matchId });
  } catch {
    return; // not a playtest's match after all, or the server is away: no survey to show
  }
  const open = info.seats.filter((seat) => !info.answered.includes(seat));
  if (!info.over || !open.length || document.getElementById("survey")) return;
  const style = element("link", { rel: "stylesheet", href: "/static/playtest.css" });
  document.head.append(style);
  const section = surveyForm(path, info, open[0]);
  const banner = document.getElementById("banner");
  banner.after(section);
}

if (playtestId) start();
