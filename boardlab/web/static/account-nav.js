/** The header's account control on every page: the signed-in name, or "Sign in". */

import { request } from "./api.js";

/** The signed-in account (`{name, created}`), or null for a guest or when it cannot be read. */
export async function currentAccount() {
  try {
    return (await request("GET", "/api/account")).account;
  } catch {
    return null;
  }
}

/** Show the account in the header's link (made by the page, or added here). */
export async function showAccount() {
  let link = document.getElementById("account-link");
  if (!link) {
    const header = document.querySelector("header.top");
    if (!header) return null;
    link = document.createElement("a");
    link.id = "account-link";
    link.className = "account-link";
    link.href = "/account";
    header.append(link);
  }
  const account = await currentAccount();
  // textContent only: a name is never read as markup.
  link.textContent = account ? account.name : "Sign in";
  link.title = account ? `Signed in as ${account.name}: your account` : "Sign in or create an account";
  link.dataset.state = account ? "signed-in" : "guest";
  return account;
}

export const accountReady = showAccount();
