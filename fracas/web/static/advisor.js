// fracas serve: the advisor (issue 23). "Suggest" asks the server for every choice of
// whoever's turn it is, ranked by the lab's tactics, with the odds of each (as the
// odds panel gives them) and the side's chance to win after it where the chain can
// say. Whether this page may ask is the table's to say (state.you.advise, from
// fracas/table/identity.py); the server checks it again. This only draws.
import { el } from "./dom.js";
import { store, send } from "./state.js";

let asked = null; // {id, seq} of the advice on its way

function box() {
  let section = document.getElementById("advisor-box");
  if (section) return section;
  section = el("section", { id: "advisor-box", "aria-labelledby": "advisor-h" });
  section.hidden = true;
  const button = el("button", { type: "button", id: "advisor-suggest" }, "Suggest");
  button.addEventListener("click", () => {
    const id = send({ type: "advise" }); // send adds the seq seen
    if (id === null) return;
    asked = { id, seq: store.seq };
    document.getElementById("advisor-how").textContent = "Working out every choice…";
    document.getElementById("advisor-list").replaceChildren();
  });
  section.append(
    el("h2", { id: "advisor-h" }, "Advisor"),
    button,
    el("p", { class: "how", id: "advisor-how", "aria-live": "polite" }),
    el("ol", { id: "advisor-list" }),
  );
  const bar = document.getElementById("winbar-box") || document.getElementById("order-box");
  if (bar) bar.after(section); else document.querySelector("main").append(section);
  return section;
}

// a chance never rounded to 0% or 100% it is not
function pct(p) {
  const text = `${(100 * p).toFixed(1)}%`;
  if (text === "0.0%" && p > 0) return "<0.1%";
  if (text === "100.0%" && p < 1) return ">99.9%";
  return text;
}

// a combatant by the name the table shows (its id only where the page has no such one)
function named(cid) {
  const c = ((store.state && store.state.combatants) || []).find((x) => x.id === cid);
  return c ? c.name : cid;
}

// one step in a few words, the actor left out (the heading says whose choices they are)
function stepWords(s) {
  if (s.do === "move") return `walk to [${s.to.join(", ")}]`;
  const parts = [s.do.replace(/_/g, " ")];
  if (s.target !== undefined) parts.push(named(s.target));
  if (s.at !== undefined) parts.push(`at [${s.at.join(", ")}]`);
  for (const [k, v] of Object.entries(s)) {
    if (!["actor", "do", "target", "at", "dice"].includes(k)) parts.push(`${k.replace(/_/g, " ")} ${typeof v === "string" ? v : JSON.stringify(v)}`);
  }
  return parts.join(" ");
}

function show(m) {
  if (!asked || m.id !== asked.id) return;
  const a = m.advice;
  // the choices come first, alone (a.working), then again with the chances to win
  if (!a.working) asked = null;
  const how = document.getElementById("advisor-how");
  const list = document.getElementById("advisor-list");
  list.replaceChildren();
  const now = a.win === null ? "" : `; ${a.side} win ${pct(a.win)} now (${a.method === "exact" ? "exact" : "floating point"})`;
  let said = `${a.name}'s choices, best first${now}.`;
  if (a.working) said += " Working out the chances to win…";
  else if (a.chances && a.unsolved) said += ` No chances to win: ${a.unsolved}.`;
  how.textContent = said;
  for (const c of a.choices) {
    const li = el("li", { "data-rank": String(c.rank) });
    const head = el("div", { class: "steps" }, c.steps.map(stepWords).join(", then ") + (c.tactics ? " — the tactics' choice" : ""));
    li.append(head);
    const figures = [];
    const o = c.odds && c.target ? c.odds.combatants[c.target] : null;
    if (o) {
      if (o.hit !== null) figures.push(`hit ${pct(o.hit)}`);
      figures.push(`mean ${o.mean.toFixed(2)}`);
      if (o.down !== undefined) figures.push(`down ${pct(o.down)}`);
      if (c.odds.estimate) figures.push("(an estimate)");
    }
    if (c.win !== null) figures.push(`then ${a.side} win ${pct(c.win)}`);
    if (figures.length) li.append(el("div", { class: "figures" }, figures.join(", ")));
    li.append(el("div", { class: "why" }, c.why));
    list.append(li);
  }
}

export function follow(state) {
  const section = box();
  section.hidden = !state.you.advise;
  if (asked && asked.seq !== store.seq) asked = null; // moved on
  const list = document.getElementById("advisor-list");
  const how = document.getElementById("advisor-how");
  if (!asked && list.dataset.seq !== String(store.seq)) {
    list.replaceChildren();
    how.textContent = "";
  }
  list.dataset.seq = String(store.seq);
}

// The advice asked (app.js's handler).
export function heard(m) { show(m); document.getElementById("advisor-list").dataset.seq = String(m.seq); }

// A refusal: the advisor says it where it was its question's.
export function refused(m) {
  if (asked && m.id === asked.id) {
    asked = null;
    document.getElementById("advisor-how").textContent = m.words || m.message; // words, no code
  }
}
