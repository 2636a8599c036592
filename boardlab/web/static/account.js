/** The account page: sign in or up as a guest; sign out, change the password, set the e-mail
 * notifications or delete the account when signed in. Every error is said in words beside its
 * form. */

import { accountReady, showAccount } from "./account-nav.js";
import { heldMatches, request } from "./api.js";
import { notify } from "./dom.js";

const $ = (id) => document.getElementById(id);
const MAX_MINE = 100;
const NAME = /^[A-Za-z0-9_-]{3,20}$/;

/** Where to go once signed in: a path of this site given as `?next=`, else the lobby. */
function next() {
  const target = new URLSearchParams(location.search).get("next") ?? "/";
  return target.startsWith("/") && !target.startsWith("//") && !target.startsWith("/\\") ? target : "/";
}

function showError(form, text) {
  const box = $(`${form}-error`);
  box.textContent = text;
  box.hidden = !text;
}

/** Submit `form`'s fields to `path` once checked by `check` (a message, or null). */
function handle(form, path, fields, check, done) {
  $(`${form}-form`).addEventListener("submit", async (event) => {
    event.preventDefault();
    const body = fields();
    const problem = check(body);
    showError(form, problem ?? "");
    if (problem) {
      // The field to correct takes the focus; the message is read out (role=alert).
      const field = event.target.querySelector("input:invalid") ?? event.target.querySelector("input");
      field?.focus();
      return;
    }
    const button = event.target.querySelector("button[type=submit]");
    button.disabled = true;
    try {
      await done(await request("POST", path, { body }));
    } catch (error) {
      showError(form, error.message.charAt(0).toUpperCase() + error.message.slice(1));
    } finally {
      button.disabled = false;
    }
  });
}

const held = () => Object.fromEntries(Object.entries(heldMatches()).slice(0, MAX_MINE));
const passwordProblem = (value, what) =>
  value.length < 8 ? `The ${what} must have at least 8 characters.`
    : value.length > 200 ? `The ${what} must have at most 200 characters.` : null;

/** Show the guest's forms or the account's; `fresh` reads the account again. */
async function render(fresh = true) {
  const account = await (fresh ? showAccount() : accountReady);
  $("loading").hidden = true;
  $("guest").hidden = Boolean(account);
  $("member").hidden = !account;
  if (account) {
    $("member-name").textContent = account.name;
    const since = new Date(account.created);
    $("member-since").textContent = Number.isNaN(since.getTime())
      ? "" : `Member since ${since.toLocaleDateString(undefined, { dateStyle: "long" })}`;
    await showNotifications();
  }
}

/** The account's e-mail notification settings, as the server has them. */
async function showNotifications() {
  try {
    showSettings(await request("GET", "/api/account/notifications"));
  } catch (error) {
    showError("notify", error.message);
  }
}

function showSettings(settings) {
  $("notify-address").value = settings.address;
  $("notify-enabled").checked = settings.enabled;
  $("notify-unavailable").hidden = settings.available;
  $("notify-status").textContent = settings.enabled
    ? `Mails go to ${settings.address}.` : "No mails are sent.";
}

handle("signin", "/api/account/signin",
  () => ({ name: $("signin-name").value.trim(), password: $("signin-password").value, matches: held() }),
  (body) => (!body.name || !body.password ? "Enter your name and password." : null),
  () => location.assign(next()));
handle("signup", "/api/account/signup",
  () => ({ name: $("signup-name").value.trim(), password: $("signup-password").value, matches: held() }),
  (body) => (!NAME.test(body.name) ? "A name is 3 to 20 letters, digits, _ or -."
    : passwordProblem(body.password, "password")),
  () => location.assign(next()));
handle("password", "/api/account/password",
  () => ({ old: $("old-password").value, new: $("new-password").value }),
  (body) => (!body.old ? "Enter your current password." : passwordProblem(body.new, "new password")),
  () => {
    $("password-form").reset();
    notify("Password changed. Your other browsers and devices are signed out.", "info");
  });
handle("notify", "/api/account/notifications",
  () => ({ address: $("notify-address").value.trim(), enabled: $("notify-enabled").checked }),
  (body) => (body.enabled && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(body.address)
    ? "Enter the e-mail address to send the mails to." : null),
  (settings) => {
    showSettings(settings);
    notify("E-mail settings saved.", "info");
  });
handle("delete", "/api/account/delete",
  () => ({ password: $("delete-password").value }),
  (body) => (!body.password ? "Enter your password to delete the account." : null),
  async () => {
    $("delete-form").reset();
    notify("Your account is deleted.", "info");
    await render();
  });

$("signout").addEventListener("click", async () => {
  try {
    await request("POST", "/api/account/signout", { body: {} });
    await render();
    notify("Signed out.", "info");
  } catch (error) {
    notify(error.message);
  }
});

render(false);
