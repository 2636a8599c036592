/**
 * The board on the game page: shows the server's SVG, marks selected and next cells, flips
 * the picture, and turns clicks (or Enter on a focused cell) into cell ids.
 */
import { svgNode } from "./dom.js";

const SVG_NS = "http://www.w3.org/2000/svg";
const MIN_TARGET_PX = 46;  // 44 px touch targets, with room for rounding
const NARROW = "(max-width: 600px)";

export class Board {
  /** `onCell(id)` is called for a click on any element that carries a `data-id`. */
  constructor(container, onCell) {
    this.container = container;
    this.svg = null;
    this.keyboard = false;    // the last cell was chosen with the keyboard: keep focus on the board
    this.focusedId = null;
    container.tabIndex = -1;  // focus falls back here when no cell can take it
    container.addEventListener("click", (event) => {
      const cell = event.target.closest?.("[data-id]");
      if (!cell || !this.container.contains(cell)) return;
      if (event.detail > 0) this.keyboard = false;  // a pointer click, not Enter or Space
      onCell(cell.dataset.id);
    });
    container.addEventListener("keydown", (event) => {
      if (event.key !== "Enter" && event.key !== " ") return;
      const cell = event.target.closest?.("[data-id]");
      if (!cell) return;
      event.preventDefault();
      this.keyboard = true;
      this.focusedId = cell.dataset.id;
      onCell(cell.dataset.id);
    });
    container.addEventListener("focusin", (event) => this.ring(event.target));
    container.addEventListener("focusout", (event) => {
      this.svg?.querySelector(".bl-focus")?.remove();
      // Leaving the board on purpose (Tab, a click elsewhere) ends keyboard play on it.
      if (event.relatedTarget && !this.container.contains(event.relatedTarget)) this.keyboard = false;
    });
  }

  /** Show a new picture (server-built SVG markup). */
  show(markup) {
    const svg = svgNode(markup);
    // A group, not an image: it holds the cells that become buttons.
    svg.setAttribute("role", "group");
    svg.setAttribute("aria-label", "Board");
    svg.removeAttribute("width");
    svg.removeAttribute("height");
    const first = this.svg === null;
    const left = this.container.scrollLeft;
    this.container.replaceChildren(svg);
    this.svg = svg;
    this.fit();
    // A board zoomed wider than a phone opens at its middle (where Anacund's pools are), and
    // stays scrolled where the player left it when the next picture comes.
    this.container.scrollLeft = first ? (this.container.scrollWidth - this.container.clientWidth) / 2 : left;
  }

  /**
   * On a phone, draw the picture wide enough that its smallest cell or piece is a 44 px touch
   * target; the board's box then scrolls sideways. Measured on every picture: a board that
   * grows (Colosseum Offcuts) is zoomed as far as it needs.
   */
  fit() {
    if (!window.matchMedia(NARROW).matches) return;
    const sizes = [...this.svg.querySelectorAll("[data-id]")].map((node) => node.getBoundingClientRect())
      .filter((box) => box.width > 0).map((box) => Math.min(box.width, box.height));
    const smallest = Math.min(...sizes);
    if (!sizes.length || smallest >= MIN_TARGET_PX) return;
    const width = this.svg.getBoundingClientRect().width * MIN_TARGET_PX / smallest;
    Object.assign(this.svg.style, { width: `${Math.ceil(width)}px`, maxWidth: "none", maxHeight: "none" });
    // A box that scrolls must be reachable by keyboard too (its arrow keys then scroll it).
    this.container.tabIndex = 0;
  }

  /** True when the board's box scrolls sideways and has the focus itself. */
  scrollFocused() {
    return document.activeElement === this.container && this.container.scrollWidth > this.container.clientWidth;
  }

  /** Replace the picture's status line (under the board) by `text`, centred, with no swatch. */
  caption(text) {
    const line = this.svg?.querySelector(".info text.status");
    if (!line) return;
    if (line.previousElementSibling?.tagName === "circle") line.previousElementSibling.remove();
    const box = this.svg.viewBox.baseVal;
    line.setAttribute("x", box.x + box.width / 2);
    line.setAttribute("text-anchor", "middle");
    line.textContent = text;
    const title = this.svg.querySelector(":scope > title");
    if (title) title.textContent = text;
  }

  /** Turn the picture half a turn (its labels stay upright, see style.css). */
  setFlipped(flipped) {
    this.container.classList.toggle("flipped", flipped);
  }

  /** The element of a cell or pool piece, or null. */
  element(id) {
    return this.svg?.querySelector(`[data-id="${CSS.escape(id)}"]`) ?? null;
  }

  /**
   * Mark `selected` ids (clicked so far) and `targets` ids (what may be clicked next); the
   * targets also become keyboard-focusable buttons. Before the first click (`firstClick`) the
   * targets are the pieces or cells a decision starts from: they get a thin frame rather than
   * a dot, so the letters on the pieces stay readable.
   */
  mark(selected, targets, firstClick = false) {
    if (!this.svg) return;
    for (const node of this.svg.querySelectorAll(".bl-selected, .bl-target")) {
      node.classList.remove("bl-selected", "bl-target");
      node.removeAttribute("tabindex");
      node.removeAttribute("role");
    }
    this.svg.querySelector(".bl-overlay")?.remove();
    const picks = [
      ...[...selected].map((id) => ({ id, selected: true })),
      ...[...targets].map((id) => ({ id, selected: false })),
    ].map((pick) => ({ ...pick, node: this.element(pick.id) })).filter((pick) => pick.node);
    // Measure every box before changing anything, so the page is laid out once, not per cell.
    for (const pick of picks) pick.box = this.box(pick.node);
    const overlay = document.createElementNS(SVG_NS, "g");
    overlay.setAttribute("class", "bl-overlay");
    overlay.setAttribute("pointer-events", "none");
    for (const { id, node, box, selected: isSelected } of picks) {
      if (isSelected) {
        node.classList.add("bl-selected");
        overlay.append(ring(box, "bl-ring"));
        continue;
      }
      node.classList.add("bl-target");
      node.setAttribute("tabindex", "0");
      node.setAttribute("role", "button");
      // What is there and whose, as the picture's own title says: "d4: Romans stone".
      node.setAttribute("aria-label", accessibleName(node, id));
      overlay.append(firstClick ? ring(box, "bl-origin") : dot(box));
    }
    this.svg.append(overlay);
    if (this.keyboard) this.keepFocus();
  }

  /** After a keyboard choice, focus the same cell if it is still a target, else the first
   * target, else the board itself, so the next Tab or Enter goes on from the board. */
  keepFocus() {
    const active = document.activeElement;
    if (active && active !== this.container && this.container.contains(active)) return;
    const targets = [...this.svg.querySelectorAll(".bl-target")];
    const same = targets.find((node) => node.dataset.id === this.focusedId);
    (same ?? targets[0] ?? this.container).focus({ preventScroll: true });
  }

  /** Draw a strong focus ring around the focused cell (an outline is faint on SVG). */
  ring(node) {
    this.svg?.querySelector(".bl-focus")?.remove();
    const cell = node.closest?.("[data-id]");
    if (!cell || !this.svg?.contains(cell)) return;
    this.focusedId = cell.dataset.id;
    const box = this.box(cell);
    const mark = document.createElementNS(SVG_NS, "g");
    mark.setAttribute("class", "bl-focus");
    mark.setAttribute("pointer-events", "none");
    mark.append(ring(box, "bl-focus-halo"), ring(box, "bl-focus-line"));
    this.svg.append(mark);
  }

  /** The box of `node` in the root SVG's coordinates. */
  box(node) {
    const b = node.getBBox();
    const m = this.svg.getScreenCTM().inverse().multiply(node.getScreenCTM());
    const corners = [[b.x, b.y], [b.x + b.width, b.y + b.height]].map(([x, y]) => {
      const p = new DOMPoint(x, y).matrixTransform(m);
      return [p.x, p.y];
    });
    const [[x1, y1], [x2, y2]] = corners;
    return { x: Math.min(x1, x2), y: Math.min(y1, y2), w: Math.abs(x2 - x1), h: Math.abs(y2 - y1) };
  }
}

/** What a target is called: the picture's title of it, led by any text it shows (a value). */
function accessibleName(node, id) {
  const title = node.querySelector(":scope > title")?.textContent || id;
  const shown = [...node.querySelectorAll("text")].map((text) => text.textContent.trim())
    .filter(Boolean).join(" ");
  return shown && !title.includes(shown) ? `${shown}: ${title}` : title;
}

/** A round mark in the middle of a box: a cell that may be clicked next. */
function dot(b) {
  const mark = document.createElementNS(SVG_NS, "circle");
  mark.setAttribute("class", "bl-dot");
  mark.setAttribute("cx", b.x + b.w / 2);
  mark.setAttribute("cy", b.y + b.h / 2);
  mark.setAttribute("r", Math.max(Math.min(b.w, b.h) * 0.16, 1));
  return mark;
}

/** A rounded frame just inside a box, of class `kind` (selected cell or first-click piece). */
function ring(b, kind) {
  const mark = document.createElementNS(SVG_NS, "rect");
  mark.setAttribute("class", kind);
  const pad = Math.min(b.w, b.h) * 0.04;
  mark.setAttribute("x", b.x + pad);
  mark.setAttribute("y", b.y + pad);
  mark.setAttribute("width", Math.max(b.w - 2 * pad, 1));
  mark.setAttribute("height", Math.max(b.h - 2 * pad, 1));
  mark.setAttribute("rx", Math.min(b.w, b.h) * 0.12);
  return mark;
}
