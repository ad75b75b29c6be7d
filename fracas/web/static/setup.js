// fracas serve: the setup page. The form is built from the schema the server derives
// from each ruleset's types (GET /api/setup/rulesets); no ruleset is named here. What
// it sends is checked by the server through the encounter-file loader; an error names
// a field (combatants[1].hp) and the page points at that control.
import { el } from "./dom.js";
import { clearFieldErrors, control, controlOf, idFrom, sheetBox, showFieldError, values } from "./sheetform.js";

const TILE = 40;
const COLOURS = ["#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9"];
const token = location.pathname.split("/").pop();
const $ = (id) => document.getElementById(id);

let forms = [];
let form = null; // the chosen ruleset's form
let rows = []; // one per combatant: {box, controls: {field: getter}, x, y}
let sent = new Map(); // field path -> the control that gave it (for errors)

async function api(path, method = "GET", body = undefined) {
  const r = await fetch(path, {
    method, headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
    body: body && JSON.stringify(body),
  });
  const data = await r.json();
  if (!r.ok) { const e = new Error(data.message); e.data = data; throw e; } // the code is for programs
  return data;
}

function notice(text) { $("notice").textContent = text; $("notice").hidden = !text; }

// --- the stored encounters ----------------------------------------------------------

async function loadStored() {
  const list = await api("/api/setup/encounters");
  const body = $("stored").querySelector("tbody");
  body.replaceChildren();
  $("stored-none").hidden = list.length > 0;
  $("stored").hidden = list.length === 0;
  for (const e of list) {
    const open = el("button", { type: "button", "aria-label": `Open ${e.name} as the game master` }, "Open");
    open.addEventListener("click", async () => {
      try { location.href = (await api("/api/setup/open", "POST", { name: e.name })).gm; } catch (err) { notice(err.message); }
    });
    const down = el("button", { type: "button", "aria-label": `Download ${e.name} as an encounter file` }, "Download");
    down.addEventListener("click", () => download(e.name));
    const cell = el("td");
    const both = el("div", { class: "buttons" });
    both.append(open, down);
    cell.append(both);
    const tr = el("tr");
    tr.append(el("th", { scope: "row" }, e.name), el("td", {}, e.ruleset), el("td", {}, String(e.records)),
      el("td", { class: "updated" }, e.updated.replace("T", " ").slice(0, 16)), cell);
    body.append(tr);
  }
}

async function download(name) {
  const r = await fetch(`/api/setup/export/${encodeURIComponent(name)}`, { headers: { Authorization: `Bearer ${token}` } });
  if (!r.ok) { notice((await r.json()).message); return; }
  const a = el("a", { href: URL.createObjectURL(await r.blob()), download: `${name}.yaml` });
  document.body.append(a);
  a.click();
  a.remove();
}

// --- the form -----------------------------------------------------------------------

let optionControls = [];

function chooseRuleset(name) {
  form = forms.find((f) => f.name === name);
  roster = null; // a mapping is to one ruleset's fields
  $("roster-map").hidden = true;
  $("roster-map-rows").replaceChildren();
  $("ruleset-summary").textContent = `${form.title}: ${form.summary}`;
  optionControls = form.options.map((f) => control(f, "options", { shorthands: form.shorthands }));
  $("options").replaceChildren(...optionControls.map((c) => c.node));
  rows = [];
  $("combatants").replaceChildren();
  addCombatant();
  addCombatant();
}

function addCombatant() {
  const n = rows.length;
  const sheet = sheetBox(form, { onTile: renderMap }); // sheetform.js: shared with the GM's page
  const { box, get } = sheet;
  const remove = el("button", { type: "button", class: "small-button" }, "Remove this combatant");
  box.append(remove);
  const row = { box, legend: sheet.legend, controls: sheet.controls, tile: sheet.tile };
  const id = get("id").focus;
  const nameInput = get("name").focus;
  const side = get("side").focus;
  id.value = `c${n + 1}`;
  side.value = n === 0 ? "players" : "enemies";
  // a new combatant goes on the next free tile of the first row
  row.tile.x.value = String(n);
  row.tile.y.value = "0";
  let idTouched = false;
  id.addEventListener("input", () => { idTouched = true; relabel(); });
  nameInput.addEventListener("input", () => {
    if (!idTouched) id.value = idFrom(nameInput.value) || `c${rows.indexOf(row) + 1}`;
    relabel();
  });
  side.addEventListener("input", renderMap);
  remove.addEventListener("click", () => { rows.splice(rows.indexOf(row), 1); box.remove(); relabel(); });
  rows.push(row);
  $("combatants").append(box);
  relabel();
  return row;
}

function label(row) {
  const c = (n) => row.controls.find((x) => x.name === n).focus.value.trim();
  return c("name") || c("id") || `combatant ${rows.indexOf(row) + 1}`;
}

function relabel() {
  const placing = $("placing");
  const was = placing.selectedIndex;
  placing.replaceChildren();
  rows.forEach((row, i) => {
    row.legend.textContent = `Combatant ${i + 1}: ${label(row)}`;
    placing.append(el("option", { value: String(i) }, label(row)));
  });
  placing.selectedIndex = Math.min(Math.max(was, 0), rows.length - 1);
  renderMap();
}

function collect() {
  sent = new Map();
  const take = (controls, prefix) => values(controls, prefix, sent);
  const data = {
    ruleset: form.name, name: $("enc-name").value, seed: $("seed").value,
    map: { width: $("map-width").value, height: $("map-height").value },
    options: take(optionControls, "options"),
    combatants: rows.map((row, i) => {
      sent.set(`combatants[${i}]`, row.controls[0].focus);
      return take(row.controls, `combatants[${i}]`);
    }),
  };
  for (const [path, id] of [["ruleset", "ruleset"], ["name", "enc-name"], ["seed", "seed"], ["map", "map-width"], ["map.width", "map-width"], ["map.height", "map-height"], ["combatants", "add"], ["options", "options-box"]]) sent.set(path, $(id));
  return data;
}

function clearErrors() {
  clearFieldErrors(document);
  $("error").hidden = true;
  $("error").className = "";
}

// Where a refusal points, in the form's words: "Bo, hp" for "combatants[1].hp" (the
// combatant as its row is labelled), "map height" for "map.height".
function fieldWords(field) {
  const m = /^combatants\[(\d+)\]\.?(.*)$/.exec(field);
  if (!m) return field.replaceAll(".", " ");
  const row = rows[Number(m[1])];
  const who = row ? label(row) : `combatant ${Number(m[1]) + 1}`;
  return m[2] ? `${who}, ${m[2].replaceAll(".", " ")}` : who;
}

// A refusal as a person reads it: where, and the message (which quotes the bad input
// and says what would do); its code is for programs, not shown.
function showError(data) {
  const text = `${data.field ? `${fieldWords(data.field)}: ` : ""}${data.message}`;
  $("error").textContent = text;
  $("error").hidden = false;
  const node = data.field ? controlOf(sent, data.field) : null;
  if (node) showFieldError(node, text);
}

async function submit(start) {
  clearErrors();
  notice("");
  const data = collect();
  try {
    const party = start && $("party").value; // issue 36: its members take what lasts
    const done = party ? await api("/api/setup/party-start", "POST", { party, form: data })
      : await api(start ? "/api/setup/start" : "/api/setup/check", "POST", data);
    if (start) location.href = done.gm;
    else {
      $("error").textContent = "The setup reads as a valid encounter file.";
      $("error").className = "ok";
      $("error").hidden = false;
    }
  } catch (err) {
    if (err.data) showError(err.data); else notice(err.message);
  }
}

// --- a roster from a spreadsheet (CSV): the server reads it as files are read ---------

// `values` (a combatant as the form's controls hold it: the server's answer) into `row`
function fill(row, values) {
  const kinds = Object.fromEntries([...form.core, ...form.sheet].map((f) => [f.name, f.kind]));
  for (const c of row.controls) {
    const v = values[c.name];
    const kind = kinds[c.name];
    if (v === undefined) continue;
    if (kind === "bool") c.focus.checked = v;
    else if (kind === "choices") for (const b of c.node.querySelectorAll("input[type=checkbox]")) b.checked = v.includes(b.value);
    else if (kind === "tile") { c.node.tile.x.value = v[0]; c.node.tile.y.value = v[1]; }
    else if (kind === "item" || kind === "items") {
      (kind === "item" ? [v] : v).forEach((item, i) => {
        if (i > 0) c.node.querySelector(":scope > button").click(); // another item row
        const r = c.node.querySelectorAll(".item-row")[i];
        r.querySelector("select").value = item.is;
        r.querySelector("input").value = item.more;
      });
    } else c.focus.value = v;
  }
}

// The CSV file being imported, kept for a second try with a column mapping: {text,
// name, map: {column: field or "-"}} (null: none).
let roster = null;

async function importRoster(file) {
  roster = { text: await file.text(), name: file.name, map: {} };
  $("roster-file").value = ""; // the same file again, once corrected, is read again
  $("roster-map").hidden = true;
  $("roster-map-rows").replaceChildren();
  await sendRoster();
}

async function sendRoster() {
  const out = $("roster-result");
  out.replaceChildren();
  out.className = "";
  const { text, name, map } = roster;
  try {
    const done = await api("/api/setup/roster", "POST", { ruleset: form.name, text, source: name, map });
    rows = [];
    $("combatants").replaceChildren();
    for (const values of done.combatants) fill(addCombatant(), values);
    relabel();
    $("roster-map").hidden = true;
    out.className = "ok";
    out.textContent = `${done.combatants.length} combatants imported from ${name}.`;
  } catch (err) {
    const cells = (err.data && err.data.cells) || [];
    // a column that names no field (row 1): offered a choice of field, not listed
    const unknown = cells.filter((c) => c.row === 1 && c.code === "unknown_column").map((c) => c.column);
    const rest = cells.filter((c) => !(c.row === 1 && c.code === "unknown_column"));
    if (unknown.length) offerMapping(unknown);
    const mapping = !$("roster-map").hidden;
    if (!cells.length) out.textContent = err.message;
    else if (unknown.length) {
      const n = unknown.length;
      out.textContent = `${n} column${n > 1 ? "s" : ""} of ${name} name${n > 1 ? "" : "s"} no field of ${form.name}: choose below what ${n > 1 ? "each" : "it"} holds, then import again. Nothing imported yet.`;
    } else out.textContent = `${rest.length} bad cell${rest.length > 1 ? "s" : ""} in ${name}; nothing imported${mapping ? " (the columns can still be chosen again below)" : ""}:`;
    const list = el("ul");
    for (const c of rest) {
      const where = c.row ? `row ${c.row}${c.column ? `, column ${c.column}` : ""}` : "the encounter";
      list.append(el("li", {}, `${where}: ${c.message}`));
    }
    if (rest.length) out.append(list);
    if (unknown.length) $("roster-map-rows").querySelector("select").focus();
  }
  out.hidden = false;
}

// A select for each column that names no field (and each chosen before): the
// ruleset's sheet fields, or "leave it out"; "Import with these columns" sends them.
function offerMapping(columns) {
  const box = $("roster-map-rows");
  const chosen = new Map([...box.querySelectorAll("select")].map((s) => [s.dataset.column, s.value]));
  const all = [...new Set([...chosen.keys(), ...columns])];
  const fields = [...form.core, ...form.sheet].map((f) => [f.name, f.name]);
  fields.push(["x", "x (the tile's column)"], ["y", "y (the tile's row)"]);
  box.replaceChildren();
  all.forEach((column, i) => {
    const select = el("select", { id: `roster-map-${i}`, "data-column": column });
    select.append(el("option", { value: "-" }, "leave it out"));
    for (const [value, text] of fields) select.append(el("option", { value }, text));
    select.value = chosen.get(column) || roster.map[column] || "-";
    const label = el("label", { class: "field" }, `Column “${column}” holds`);
    label.append(select);
    box.append(label);
  });
  $("roster-map-what").textContent = `the fields of ${form.name}`;
  $("roster-map").hidden = false;
}

function importMapped() {
  if (!roster) return;
  roster.map = Object.fromEntries([...$("roster-map-rows").querySelectorAll("select")].map((s) => [s.dataset.column, s.value]));
  sendRoster();
}

// --- the map preview ----------------------------------------------------------------

function renderMap() {
  const at = rows.map((row) => [parseInt(row.tile.x.value, 10), parseInt(row.tile.y.value, 10)]);
  const fixed = [parseInt($("map-width").value, 10), parseInt($("map-height").value, 10)];
  const w = fixed[0] > 0 ? Math.min(fixed[0], 60) : Math.max(8, ...at.map((t) => (Number.isFinite(t[0]) ? t[0] + 2 : 0)));
  const h = fixed[1] > 0 ? Math.min(fixed[1], 60) : Math.max(5, ...at.map((t) => (Number.isFinite(t[1]) ? t[1] + 2 : 0)));
  const map = $("setup-map");
  map.setAttribute("viewBox", `0 0 ${w * TILE} ${h * TILE}`);
  map.dataset.width = String(w);
  const grid = $("setup-grid-rect");
  grid.setAttribute("width", String(w * TILE));
  grid.setAttribute("height", String(h * TILE));
  const sides = [];
  const tokens = $("setup-tokens");
  tokens.replaceChildren();
  const where = [];
  rows.forEach((row, i) => {
    const [x, y] = at[i];
    if (!Number.isFinite(x) || !Number.isFinite(y)) { where.push(`${label(row)} not placed`); return; }
    const side = row.controls.find((c) => c.name === "side").focus.value.trim() || label(row);
    if (!sides.includes(side)) sides.push(side);
    const g = el("svg:g", { class: "token", "data-index": String(i) });
    g.append(el("svg:circle", { cx: (x + 0.5) * TILE, cy: (y + 0.5) * TILE, r: TILE * 0.4, fill: COLOURS[sides.indexOf(side) % COLOURS.length] }));
    g.append(el("svg:text", { x: (x + 0.5) * TILE, y: (y + 0.5) * TILE + 4 }, label(row).slice(0, 3)));
    tokens.append(g);
    where.push(`${label(row)} at ${x}, ${y}`);
  });
  $("map-desc").textContent = where.join("; ");
}

function placeAt(e) {
  const map = $("setup-map");
  const p = map.createSVGPoint();
  p.x = e.clientX; p.y = e.clientY;
  const q = p.matrixTransform(map.getScreenCTM().inverse());
  const row = rows[$("placing").selectedIndex];
  if (!row) return;
  row.tile.x.value = String(Math.floor(q.x / TILE));
  row.tile.y.value = String(Math.floor(q.y / TILE));
  renderMap();
  const next = $("placing").selectedIndex + 1;
  if (next < rows.length) $("placing").selectedIndex = next;
}

async function main() {
  const stored = loadStored().catch((err) => notice(err.message)); // both asked at once
  api("/api/setup/parties").then((ps) => { for (const p of ps) $("party").append(el("option", { value: p.name }, `${p.name} (${p.ruleset}: ${p.members.join(", ")})`)); }).catch((err) => notice(err.message));
  try {
    forms = await api("/api/setup/rulesets");
  } catch (err) { notice(err.message); return; }
  for (const f of forms) $("ruleset").append(el("option", { value: f.name }, `${f.name}: ${f.title}`));
  $("ruleset").addEventListener("change", () => chooseRuleset($("ruleset").value));
  chooseRuleset(forms[0].name);
  $("add").addEventListener("click", () => { const row = addCombatant(); row.controls[1].focus.focus(); });
  $("new").addEventListener("submit", (e) => { e.preventDefault(); submit(true); });
  $("check").addEventListener("click", () => submit(false));
  $("roster-file").addEventListener("change", (e) => { if (e.target.files[0]) importRoster(e.target.files[0]); });
  $("roster-map-go").addEventListener("click", importMapped);
  $("setup-map").addEventListener("click", placeAt);
  for (const id of ["map-width", "map-height"]) $(id).addEventListener("input", renderMap);
  await stored;
}

main();
