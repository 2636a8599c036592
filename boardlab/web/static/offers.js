/**
 * Draw offers and takeback requests on the game page: the buttons that make them, and the
 * waiting offer shown to both players (and spectators) with Accept and Decline for the one
 * who answers. The server decides what is allowed and says so in the view (`may_offer`).
 */
import { el, replace } from "./dom.js";

/**
 * Show the Offer draw and Ask to take back buttons only when the view says that offer may be
 * made now (`may_offer`: not while one waits, not again after a decline before the next move,
 * a takeback only of your own last move).
 */
export function showOfferButtons(view, drawButton, takebackButton) {
  const allowed = new Set(view.may_offer ?? []);
  drawButton.hidden = !allowed.has("draw");
  takebackButton.hidden = !allowed.has("takeback");
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
