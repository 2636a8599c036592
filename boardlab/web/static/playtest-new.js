/** The designer's form: a playtest's game, variants, opponent, clock, survey and end date. */
import { request } from "./api.js";

const form = document.getElementById("playtest-form");
const gameSelect = document.getElementById("pt-game");
const variantList = document.getElementById("variant-list");
const questionList = document.getElementById("question-list");
const formError = document.getElementById("form-error");
let catalogue = null;
let limits = null;

function element(tag, attributes = {}, text = "") {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
  if (text) node.textContent = text;
  return node;
}

function currentGame() {
  return catalogue.games.find((game) => game.id === gameSelect.value);
}

/** One option's control: "as the rules stand" (the default) or a value the variant sets. */
function optionControl(option, id) {
  let control;
  if (option.kind === "choice" || option.kind === "bool") {
    control = element("select", { id, "data-key": option.key });
    control.append(element("option", { value: "" }, `as the rules stand (${option.default})`));
    const choices = option.kind === "bool" ? ["true", "false"] : option.choices;
    for (const choice of choices) control.append(element("option", { value: String(choice) }, String(choice)));
  } else {
    control = element("input", { id, "data-key": option.key, placeholder: `as the rules stand (${option.default})` });
    if (option.kind === "int") control.setAttribute("inputmode", "numeric");
  }
  return control;
}

function addVariant() {
  const count = variantList.children.length;
  if (count >= limits.max_variants) return;
  const number = count + 1;
  const box = element("div", { class: "variant" });
  const head = element("div", { class: "variant-head" });
  const nameId = `variant-${number}-name`;
  const nameField = element("div", { class: "field" });
  nameField.append(element("label", { for: nameId }, `Variant ${number}: your name for it`));
  nameField.append(element("input", { id: nameId, class: "variant-name", maxlength: "40", value: number === 1 ? "As the rules stand" : `Variant ${number}` }));
  head.append(nameField);
  if (count > 0) {
    const remove = element("button", { type: "button", "aria-label": `Remove variant ${number}` }, "Remove");
    remove.addEventListener("click", () => { box.remove(); });
    head.append(remove);
  }
  box.append(head);
  for (const option of currentGame().options) {
    const id = `variant-${number}-${option.key}`;
    const field = element("div", { class: "field" });
    field.append(element("label", { for: id }, option.label));
    field.append(optionControl(option, id));
    box.append(field);
  }
  variantList.append(box);
}

function resetVariants() {
  variantList.replaceChildren();
  addVariant();
}

function readVariants() {
  return [...variantList.children].map((box) => {
    const options = {};
    for (const control of box.querySelectorAll("[data-key]")) {
      if (control.value.trim() !== "") options[control.dataset.key] = control.value.trim();
    }
    return { name: box.querySelector(".variant-name").value, options };
  });
}

function readClock(value) {
  if (!value) return null;
  if (value.startsWith("d")) return { days: Number(value.slice(1)) };
  const [base, increment] = value.split("+").map(Number);
  return { base, increment };
}

function showError(message) {
  formError.textContent = message;
  formError.hidden = false;
}

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  formError.hidden = true;
  const body = {
    title: form.title.value,
    game: gameSelect.value,
    opponent: form.opponent.value,
    clock: readClock(form.clock.value),
    ends: form.ends.value,
    show_variant: form.show_variant.checked,
    variants: readVariants(),
    questions: [...questionList.querySelectorAll("input")].map((input) => input.value).filter((q) => q.trim()),
  };
  try {
    const answer = await request("POST", "/api/playtests", { body });
    const share = new URL(answer.link, location.href).href;
    const dashboard = new URL(answer.dashboard, location.href).href;
    const shareLink = document.getElementById("share-link");
    shareLink.href = answer.link;
    shareLink.textContent = share;
    const dashboardLink = document.getElementById("dashboard-link");
    dashboardLink.href = answer.dashboard;
    dashboardLink.textContent = dashboard;
    document.getElementById("owned-note").hidden = !answer.owned;
    form.hidden = true;
    document.getElementById("created").hidden = false;
    document.getElementById("created-title").focus?.();
  } catch (error) {
    showError(error.message);
  }
});

async function start() {
  try {
    [catalogue, limits] = await Promise.all([request("GET", "/api/catalogue"), request("GET", "/api/playtests/new")]);
  } catch (error) {
    showError(error.message);
    return;
  }
  for (const game of catalogue.games) gameSelect.append(element("option", { value: game.id }, game.name));
  for (const bot of catalogue.bots) form.opponent.append(element("option", { value: bot.spec }, `Each against a bot: ${bot.label}`));
  limits.questions.forEach((question, index) => {
    const id = `question-${index + 1}`;
    const field = element("div", { class: "field" });
    field.append(element("label", { for: id }, `Question ${index + 1}`));
    field.append(element("input", { id, maxlength: "200", value: question }));
    questionList.append(field);
  });
  const ends = new Date(Date.now() + 30 * 24 * 3600 * 1000);
  form.ends.value = ends.toISOString().slice(0, 10);
  gameSelect.addEventListener("change", () => {
    form.title.value = `${currentGame().name} playtest`;
    resetVariants();
  });
  document.getElementById("add-variant").addEventListener("click", addVariant);
  form.title.value = `${currentGame().name} playtest`;
  resetVariants();
}

/** A signed-in designer's playtests, each a link to its dashboard (a guest has none). */
async function showMine() {
  let mine;
  try {
    mine = await request("GET", "/api/playtests");
  } catch {
    return;
  }
  if (!mine.playtests.length) return;
  const list = document.getElementById("mine-list");
  for (const playtest of mine.playtests) {
    const item = element("li");
    item.append(element("a", { href: `/playtest/${encodeURIComponent(playtest.id)}/dashboard` }, playtest.title));
    list.append(item);
  }
  document.getElementById("mine").hidden = false;
}

start();
showMine();
