/**
 * Click-to-move for any game: the legal decisions carry click paths (cell ids in order, or a
 * named button); each click narrows the decisions to those whose path starts with the cells
 * clicked so far.
 */

function startsWith(targets, prefix) {
  return prefix.every((id, i) => targets[i] === id);
}

/** What the clicks so far allow: the decisions they complete and the cells that may come next. */
export function narrow(legal, clicked) {
  const candidates = legal.filter(
    (d) => d.targets.length >= clicked.length && startsWith(d.targets, clicked),
  );
  const complete = clicked.length
    ? candidates.filter((d) => d.targets.length === clicked.length) : [];
  const next = new Set(
    candidates.filter((d) => d.targets.length > clicked.length).map((d) => d.targets[clicked.length]),
  );
  return { candidates, complete, next };
}

/** The cells clicked towards one decision, and what a further click does. */
export class ClickPicker {
  constructor(legal = []) {
    this.reset(legal);
  }

  /** Start over with these legal decisions. */
  reset(legal) {
    this.legal = legal.filter((d) => d.targets && d.targets.length);
    this.clicked = [];
  }

  /** The current narrowing (cells to highlight next, decisions complete). */
  state() {
    return narrow(this.legal, this.clicked);
  }

  /**
   * Take a click on cell `id`. Returns `{kind: "play", decision}` when the clicks make exactly
   * one decision, `{kind: "choose", options}` when they complete some decisions but others go
   * on, `{kind: "continue"}` while a path is under way, `{kind: "none"}` when nothing fits.
   */
  click(id) {
    let path = [...this.clicked, id];
    let found = narrow(this.legal, path);
    if (!found.candidates.length && this.clicked.at(-1) === id) {
      this.clicked = this.clicked.slice(0, -1);
      return { kind: "continue" };
    }
    if (!found.candidates.length && this.clicked.length) {
      path = [id];
      found = narrow(this.legal, path);
    }
    if (!found.candidates.length) {
      this.clicked = [];
      return { kind: "none" };
    }
    this.clicked = path;
    if (found.complete.length === 1 && !found.next.size) {
      return { kind: "play", decision: found.complete[0] };
    }
    if (found.complete.length) return { kind: "choose", options: found.complete };
    return { kind: "continue" };
  }
}
