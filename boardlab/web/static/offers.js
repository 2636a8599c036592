/**
 * Draw offers and takeback requests on the game page: the buttons that make them, and the
 * waiting offer shown to both players (and spectators) with Accept and Decline for the one
 * who answers. The server decides what is allowed; the page only hides what it would refuse.
 */
import { el, replace } from "./dom.js";

/** True when offers are made in this match: two human seats, this browser holding one. */
export function offersPossible(view) {
  const you = view.you ?? [];
  return view.status === "active" && view.players.length === 2 && you.length === 1
    && view.players.every((player) => player.kind !== "bot");
}

/** Show or hide the Offer draw and Ask to take back buttons. */
export function showOfferButtons(view, drawButton, takebackButton) {
  const possible = offersPossible(view) && !view.offer;
  const me = (view.you ?? [])[0];
  const last = view.moves.at(-1);
  drawButton.hidden = !possible;
  takebackButton.hidden = !(possible && last && last.seat === me);
}

/**
 * Fill `box` with the waiting offer: who offers what, and for the seat that answers, Accept
 * and Decline (`answer(kind, accept)`).
 */
export function showOffer(box, view, answer) {
  const offer = view.offer;
  box.hidden = !offer || view.status !== "active";
  if (box.hidden) {
    replace(box);
    return;
  }
  const you = new Set(view.you ?? []);
  const name = view.players[offer.seat]?.name ?? "the other player";
  if (you.has(offer.seat)) {
    const asked = offer.kind === "draw" ? "You offered a draw" : "You asked to take back your last move";
    replace(box, el("p", {}, `${asked}; waiting for the answer.`));
    return;
  }
  const text = offer.kind === "draw" ? `Draw offered by ${name}.`
    : `Takeback requested by ${name}: undo their last move?`;
  const answers = you.size === 1 ? [
    el("button", { type: "button", class: "primary accept", onclick: () => answer(offer.kind, true) }, "Accept"),
    el("button", { type: "button", class: "decline", onclick: () => answer(offer.kind, false) }, "Decline"),
  ] : [];
  replace(box, el("p", {}, text), answers.length ? el("div", { class: "offer-actions" }, answers) : null);
}
