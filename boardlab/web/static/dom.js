/** Building DOM nodes from data without ever parsing server text as markup. */

/**
 * Make an element: `el("button", {class: "x", onclick: f}, "text", child)`.
 * Strings become text nodes (never markup); attributes starting with "on" are listeners.
 */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (key === "class") node.className = value;
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  append(node, children);
  return node;
}

/** Append children (nodes, strings as text, arrays flattened, null skipped). */
export function append(node, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** Replace all children of `node`. */
export function replace(node, ...children) {
  node.replaceChildren();
  append(node, children);
}

/** A server-built SVG picture (the one markup the page takes from the server) as a node. */
export function svgNode(markup) {
  const template = document.createElement("template");
  template.innerHTML = markup;
  const root = template.content.querySelector("svg");
  return root ?? el("p", { class: "muted" }, "(no picture)");
}

/** Show a one-line message in the page's message area, for errors and notices. */
export function notify(text, kind = "error") {
  const box = document.getElementById("message");
  if (!box) return;
  box.textContent = text;
  box.dataset.kind = kind;
  box.hidden = false;
  clearTimeout(notify.timer);
  notify.timer = setTimeout(() => { box.hidden = true; }, kind === "error" ? 8000 : 4000);
}

/** "king_captured" -> "king captured". */
export function words(name) {
  return String(name ?? "").replaceAll("_", " ").replaceAll("-", " ");
}
