// One element maker for every module of the pages (the table's and the setup page's):
// el("li", {class: "x", hidden: true}, "text"); "svg:circle" makes an SVG element. An
// attribute whose value is null, undefined or false is left out; true sets it empty.
//
// Focus by key: every control a redraw may build again carries a stable data-key (the
// action "act:ana:attack", the target "target:bo", the token "token:bo"); keepFocus
// runs a redraw and, where it replaced the focused control, focuses the control drawn
// with the same key (a keyboard user keeps their place; nothing is guessed from an id,
// a label or a text).

export const SVG = "http://www.w3.org/2000/svg";

export const $ = (id) => document.getElementById(id);

export function el(tag, attrs = {}, text = "") {
  const node = tag.startsWith("svg:") ? document.createElementNS(SVG, tag.slice(4)) : document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v !== null && v !== undefined && v !== false) node.setAttribute(k, v === true ? "" : v);
  }
  if (text) node.textContent = text;
  return node;
}

// The key of the control that has the focus (null: none, or one never redrawn).
export function focusedKey() {
  const a = document.activeElement;
  return a && a !== document.body ? a.getAttribute("data-key") : null;
}

// After a redraw: the focus back on the control keyed `key`, where the focused one was
// replaced (the focus fell to the body); a control kept in place keeps it anyway.
export function restoreFocus(key) {
  if (!key) return;
  const a = document.activeElement;
  if (a && a !== document.body && a.isConnected) return;
  const found = document.querySelector(`[data-key="${CSS.escape(key)}"]`);
  if (found && !found.disabled && found.checkVisibility()) found.focus({ preventScroll: true });
}

export function keepFocus(redraw) {
  const key = focusedKey();
  try { redraw(); } finally { restoreFocus(key); }
}
