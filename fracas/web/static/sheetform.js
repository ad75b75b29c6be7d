// A combatant's sheet as a form, built from the schema the server derives from a
// ruleset's types (fracas/web/setup.py's ruleset_forms: core fields, sheet fields, item
// short-hands); no ruleset is named here. The setup page (setup.js) and the game
// master's page (gmsheet.js) both build their combatants with it; the server turns what
// it sends into a file's combatant with one function (setup.py's combatant), and an
// error's field (combatants[1].hp, combatant.at) points back at the control.
import { el } from "./dom.js";

let nextId = 1;

export function uid(prefix) { return `${prefix}-${nextId++}`; }

export function shown(v) {
  if (v === null || v === undefined) return "";
  return typeof v === "object" ? JSON.stringify(v) : String(v);
}

// An id from a name that keeps its letters: "Ölga the 🐀" -> "olga-the" (accents taken
// off the letters, not the letters dropped); the name itself is kept as typed.
export function idFrom(name) {
  return name.normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLowerCase()
    .replace(/[^a-z0-9_-]+/g, "-").replace(/^-+|-+$/g, "");
}

// A control: {node, get(), focus, name, where} where get() is the value to send, or
// undefined (left out). `shorthands`: the ruleset's item short-hands; `onTile`: called
// as a tile's x or y is typed.
export function control(f, where, { shorthands = [], onTile = null } = {}) {
  const id = uid("f");
  const hint = f.meaning ? el("small", { id: `${id}-hint` }, f.meaning) : null;
  const described = hint ? `${id}-hint` : null;
  const wrap = el("div", { class: `field kind-${f.kind}` });
  const label = el("label", { for: id }, f.name);
  let get;
  let focusable;
  if (f.kind === "bool") {
    const box = el("input", { type: "checkbox", id, "aria-describedby": described, checked: Boolean(f.default) });
    wrap.classList.add("check");
    wrap.append(box, label);
    get = () => (box.checked === Boolean(f.default) ? undefined : box.checked);
    focusable = box;
  } else if (f.kind === "choice") {
    const sel = el("select", { id, "aria-describedby": described });
    sel.append(el("option", { value: "" }, `default${f.default !== null && f.default !== undefined ? ` (${shown(f.default)})` : ""}`));
    for (const c of f.choices) sel.append(el("option", { value: String(c) }, String(c)));
    wrap.append(label, sel);
    get = () => sel.value || undefined;
    focusable = sel;
  } else if (f.kind === "choices") {
    const set = el("fieldset", { class: "choices", "aria-describedby": described });
    set.append(el("legend", {}, f.name));
    const boxes = f.choices.map((c) => {
      const b = el("input", { type: "checkbox", value: String(c), id: uid("c"), checked: (f.default || []).includes(c) });
      const one = el("span", { class: "check" });
      one.append(b, el("label", { for: b.id }, String(c)));
      set.append(one);
      return b;
    });
    wrap.append(set);
    get = () => {
      const v = boxes.filter((b) => b.checked).map((b) => b.value);
      return JSON.stringify(v) === JSON.stringify((f.default || []).map(String)) ? undefined : v;
    };
    focusable = boxes[0] || set;
  } else if (f.kind === "tile") {
    const x = el("input", { id, inputmode: "numeric", autocomplete: "off", "aria-describedby": described, size: 3 });
    const y = el("input", { id: `${id}-y`, inputmode: "numeric", autocomplete: "off", size: 3 });
    const pair = el("span", { class: "pair" });
    pair.append(x, el("label", { for: `${id}-y` }, "y"), y);
    label.textContent = `${f.name} x`;
    wrap.append(label, pair);
    if (onTile) for (const i of [x, y]) i.addEventListener("input", onTile);
    get = () => (x.value.trim() || y.value.trim() ? [x.value, y.value] : undefined);
    wrap.tile = { x, y };
    focusable = x;
  } else if (f.kind === "item" || f.kind === "items") {
    const list = el("div", { class: "items", role: "group", "aria-labelledby": `${id}-name` });
    label.removeAttribute("for");
    label.id = `${id}-name`;
    const items = [];
    const addRow = () => {
      const row = el("div", { class: "item-row" });
      const n = items.length + 1;
      const what = f.kind === "items" ? `${f.name} ${n}` : f.name;
      const sel = el("select", { "aria-label": `${what}: short-hand` });
      sel.append(el("option", { value: "" }, f.kind === "item" ? "none / own fields" : "own fields"));
      for (const s of shorthands) sel.append(el("option", { value: s }, s));
      const more = el("input", { "aria-label": `${what}: more fields`, autocomplete: "off", placeholder: "key: value, …" });
      row.append(sel, more);
      const item = { row, get: () => ({ is: sel.value, more: more.value }), blank: () => !sel.value && !more.value.trim(), focus: sel };
      if (f.kind === "items") {
        const rm = el("button", { type: "button", "aria-label": `Remove ${what}` }, "×");
        rm.addEventListener("click", () => { items.splice(items.indexOf(item), 1); row.remove(); });
        row.append(rm);
      }
      items.push(item);
      list.append(row);
      return item;
    };
    addRow();
    wrap.append(label, list);
    if (f.kind === "items") {
      const add = el("button", { type: "button", class: "small-button" }, `Add to ${f.name}`);
      add.addEventListener("click", () => addRow().focus.focus());
      wrap.append(add);
    }
    get = () => {
      const given = items.filter((i) => !i.blank());
      if (!given.length) return undefined;
      return f.kind === "item" ? given[0].get() : given.map((i) => i.get());
    };
    // each sent row is its own path, for errors inside one item
    wrap.paths = (path) => items.filter((i) => !i.blank()).map((i, n) => [f.kind === "items" ? `${path}[${n}]` : path, i.focus]);
    focusable = items[0].focus;
  } else {
    const input = el("input", {
      id, autocomplete: "off", "aria-describedby": described,
      inputmode: f.kind === "int" ? "numeric" : null,
      placeholder: f.kind === "list" ? (f.default || []).join(", ") : shown(f.default),
    });
    wrap.append(label, input);
    get = () => (input.value.trim() ? input.value : undefined);
    focusable = input;
  }
  if (hint) wrap.append(hint);
  return { node: wrap, get, focus: focusable, name: f.name, where };
}

// One combatant's sheet: a fieldset with its core fields, its items, and the rest of
// the sheet folded in a <details>. {box, legend, controls, get(name), tile}
export function sheetBox(form, { onTile = null } = {}) {
  const opts = { shorthands: form.shorthands, onTile };
  const box = el("fieldset", { class: "combatant" });
  const legend = el("legend");
  box.append(legend);
  const core = form.core.map((f) => control(f, "core", opts));
  const items = form.sheet.filter((f) => f.kind === "item" || f.kind === "items").map((f) => control(f, "sheet", opts));
  const rest = form.sheet.filter((f) => f.kind !== "item" && f.kind !== "items").map((f) => control(f, "sheet", opts));
  const coreBox = el("div", { class: "fields" });
  coreBox.append(...core.map((c) => c.node));
  const more = el("details");
  more.append(el("summary", {}, `Sheet fields (${rest.length}; blank: the default)`));
  const restBox = el("div", { class: "fields" });
  restBox.append(...rest.map((c) => c.node));
  more.append(restBox);
  box.append(coreBox, ...items.map((c) => c.node), more);
  const controls = [...core, ...items, ...rest];
  const get = (name) => controls.find((c) => c.name === name);
  return { box, legend, controls, get, tile: get("at") ? get("at").node.tile : null };
}

// What `controls` send: {field: value}, each value's path kept in `sent` (path -> the
// control that gave it) for an error's field.
export function values(controls, prefix, sent) {
  const out = {};
  for (const c of controls) {
    const v = c.get();
    if (v === undefined) continue;
    const path = prefix ? `${prefix}.${c.name}` : c.name;
    out[c.name] = v;
    sent.set(path, c.focus);
    if (c.node.paths) for (const [p, node] of c.node.paths(path)) sent.set(p, node);
  }
  return out;
}

// The control an error's field names: the longest sent path that starts it.
export function controlOf(sent, field) {
  let best = null;
  let bestLen = -1;
  for (const [path, node] of sent) {
    const starts = field === path || field.startsWith(`${path}.`) || field.startsWith(`${path}[`);
    if (starts && path.length > bestLen) { best = node; bestLen = path.length; }
  }
  return best;
}

// `text` shown under the control `node`, which is marked invalid and focused (its
// <details> opened); the message is read with the control (aria-describedby).
export function showFieldError(node, text) {
  for (let d = node.closest("details"); d; d = d.parentElement.closest("details")) d.open = true;
  const msg = el("p", { class: "field-error", id: uid("err") }, text);
  (node.closest(".field") || node.parentElement).append(msg);
  node.setAttribute("aria-invalid", "true");
  // announced where aria-errormessage is not; the hint, if any, after it
  node.dataset.describedby = node.getAttribute("aria-describedby") || "";
  node.setAttribute("aria-describedby", `${msg.id} ${node.dataset.describedby}`.trim());
  node.focus();
}

export function clearFieldErrors(root = document) {
  for (const n of root.querySelectorAll("[aria-invalid]")) {
    n.removeAttribute("aria-invalid");
    if (n.dataset.describedby) n.setAttribute("aria-describedby", n.dataset.describedby);
    else n.removeAttribute("aria-describedby");
  }
  for (const n of root.querySelectorAll(".field-error")) n.remove();
}
