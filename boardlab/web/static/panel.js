/** The side panel of the game page: seats, status, move list and the game-over banner. */
import { el, replace, words } from "./dom.js";

// The SVG renderer's default seat palette (Okabe-Ito), for views that name no colours.
const FALLBACK_COLOURS = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#F0E442"];

/** The colour of a seat's pieces (the server's, else a fixed palette). */
export function seatColour(view, seat) {
  return view.colours?.[seat] ?? FALLBACK_COLOURS[seat % FALLBACK_COLOURS.length];
}

function kindText(player, held, bots) {
  if (held) return "you";
  if (player.kind === "bot") return bots.get(player.bot) ?? words(player.bot ?? "bot");
  if (player.kind === "invite") return "invited player";
  return "player";
}

/** Fill the list of seats: colour, name, who plays it, score, and who is to move or thinking. */
export function showPlayers(list, view, { thinkingSeat, bots }) {
  const you = new Set(view.you ?? []);
  replace(list, view.players.map((player) => {
    const toMove = view.status === "active" && view.to_move === player.seat;
    const score = view.scores?.[player.seat] ?? view.result?.scores?.[player.seat];
    const outcome = view.result?.results?.[player.seat];
    return el("li", { class: `seat${toMove ? " to-move" : ""}`, "data-seat": player.seat },
      el("span", { class: "swatch", style: `background:${seatColour(view, player.seat)}` }),
      el("span", { class: "seat-name" }, player.name),
      el("span", { class: "seat-kind" }, kindText(player, you.has(player.seat), bots)),
      score === undefined || score === null ? null : el("span", { class: "seat-score" }, String(score)),
      outcome ? el("span", { class: `seat-result ${outcome}` }, outcome) : null,
      toMove ? seatMark(view, thinkingSeat === player.seat) : null);
  }));
}

/** What the seat to move shows: its bot preparing, thinking or stuck, else "to move". */
function seatMark(view, thinking) {
  if (view.bot === "preparing") return el("span", { class: "thinking", role: "status" }, "preparing…");
  if (view.bot === "failed") return el("span", { class: "bot-failed", role: "status" }, "could not move");
  if (thinking) return el("span", { class: "thinking", role: "status" }, "thinking…");
  return el("span", { class: "turn-mark" }, "to move");
}

/**
 * Fill the move list: one button per turn, grouped in rounds of the seat count; `at` is the
 * number of turns whose position is shown (the last one is highlighted).
 */
export function showMoves(list, view, at, onPick) {
  replace(list, view.moves.map((move) => el("li", {},
    el("button", {
      type: "button",
      class: `move${move.n === at ? " current" : ""}`,
      style: `--seat:${seatColour(view, move.seat)}`,
      "data-n": move.n,
      title: `${view.players[move.seat]?.name ?? ""} ${move.turn}`,
      onclick: () => onPick(move.n),
    }, el("span", { class: "move-n" }, `${move.n}.`), move.turn))));
  scrollToCurrent(list);
}

/**
 * Scroll the move list (and only it: scrollIntoView would scroll the whole page on a phone) so
 * that the highlighted move is in view; with no move highlighted, the start of the list.
 */
export function scrollToCurrent(list) {
  const current = list.querySelector(".current");
  if (!current) {
    list.scrollTop = 0;
    return;
  }
  // Measured on screen: offsetTop counts from whichever ancestor is positioned, not the list.
  const box = list.getBoundingClientRect();
  const item = current.getBoundingClientRect();
  const top = item.top - box.top - list.clientTop;
  if (top < 0 || top + item.height > list.clientHeight) {
    list.scrollTop += top - (list.clientHeight - item.height) / 2;
  }
}

/**
 * How a finished game ended, in plain words: `head` says who won ("Romans won", "Draw") and
 * `reason` why, from the catalogue's sentence for the termination (`endings`).
 */
export function endText(view, endings) {
  const result = view.result ?? {};
  const names = (outcome) => view.players
    .filter((player) => result.results?.[player.seat] === outcome)
    .map((player) => player.name).join(" and ");
  const winners = names("win");
  const head = result.termination === "aborted" ? "Aborted, no result"
    : winners ? `${winners} won` : "Draw";
  const template = endings?.[result.termination];
  if (!template) return { head, reason: "" };
  let reason = template.replaceAll("{winners}", winners).replaceAll("{losers}", names("loss"));
  if (result.scores) {
    const scores = view.players.map((player) => `${player.name} ${result.scores[player.seat]}`);
    reason += ` Score: ${scores.join(", ")}.`;
  }
  return { head, reason };
}

/** Fill the game-over banner (hidden while the game goes on); `end` is from `endText`. */
export function showBanner(banner, view, end) {
  banner.hidden = view.status !== "finished";
  if (banner.hidden) return;
  banner.querySelector(".banner-result").textContent = `${end.head}.`;
  banner.querySelector(".banner-reason").textContent = end.reason;
}
