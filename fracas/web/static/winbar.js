// fracas serve: the win bar. Each side's chance to win, as the server works it out
// after every record (fracas/web/winbar.py): exact, or an estimate with its 95%
// interval. The server decides who gets it, and which figures: an estimate wider than
// ±10 points comes with no figure ("working", the fights so far), and this draws it in
// words; an estimate's every figure is drawn with its interval. This only draws what
// arrives, and gives the game master the switch that shows it to the players (the
// server checks it).
import { el } from "./dom.js";
import { send } from "./state.js";
import { sideColour } from "./sides.js";

let players = false;

const colour = sideColour; // the map's colours

function pct(p) { return `${(100 * p).toFixed(1)}%`; }

// A chance in words: 100% (0%) only where the server says it is certain; a chance
// that rounds to it otherwise reads >99.9% (<0.1%).
function said(p, certain) {
  if (certain && p >= 1) return "100%";
  if (certain && p <= 0) return "0%";
  const text = pct(p);
  if (text === "100.0%") return ">99.9%";
  if (text === "0.0%") return "<0.1%";
  return text;
}

function fights(n) {
  return `${n.toLocaleString("en")} simulated ${n === 1 ? "fight" : "fights"}`;
}

// No figure yet (the server sends none while an estimate is wider than ±10 points):
// the bar in words, with how many fights have been played so far.
function working(section, strip, how, bar, record) {
  const n = bar.fights || 0;
  section.dataset.method = "working";
  section.classList.add("estimate", "working");
  const so = `${n.toLocaleString("en")} ${n === 1 ? "fight" : "fights"}`;
  let text;
  if (n === 0) {
    text = `Working it out: no fight finished yet (after record ${record}).`;
  } else if (bar.final) {
    text = `Too close to call: ${so} played out (after record ${record}), not enough to give a chance within 10 points either way.`;
  } else {
    text = `Working it out: ${so} so far (after record ${record}). A chance is shown once it is known to within 10 points either way.`;
  }
  how.textContent = text;
  strip.setAttribute("aria-label", n === 0
    ? "win chance: being worked out"
    : `win chance: being worked out, ${so} so far`);
}

function box() {
  let section = document.getElementById("winbar-box");
  if (section) return section;
  section = el("section", { id: "winbar-box", "aria-labelledby": "winbar-h" });
  section.hidden = true;
  section.append(
    el("h2", { id: "winbar-h" }, "Win chance"),
    el("div", { class: "bar", id: "winbar", role: "img" }),
    el("ul", { id: "winbar-sides", "aria-live": "polite" }),
    el("p", { class: "how", id: "winbar-how" }),
  );
  const toggle = el("button", { type: "button", id: "winbar-players", "aria-pressed": "false" }, "Show the win bar to players");
  toggle.hidden = true;
  toggle.addEventListener("click", () => {
    send({ type: "winbar", players: !players }); // the server decides
  });
  const why = el("p", { class: "small", id: "winbar-withheld", role: "status" });
  why.hidden = true;
  toggle.setAttribute("aria-describedby", "winbar-withheld");
  section.append(toggle, why);
  const order = document.getElementById("order-box");
  if (order) order.before(section); else document.querySelector("main").append(section);
  return section;
}

export function draw(m) {
  const section = box();
  players = m.players;
  const toggle = document.getElementById("winbar-players");
  toggle.hidden = !m.gm;
  toggle.setAttribute("aria-pressed", String(players));
  toggle.textContent = players ? "Hide the win bar from players" : "Show the win bar to players";
  const why = document.getElementById("winbar-withheld");
  why.textContent = m.withheld || ""; // the table's words: why players see nothing yet
  why.hidden = !m.gm || !m.withheld;
  if (!m.bar) {
    section.hidden = !m.gm; // a player's page: no bar shown to it any more
    if (!m.gm) return;
  }
  section.hidden = false;
  const bar = m.bar;
  const strip = document.getElementById("winbar");
  const list = document.getElementById("winbar-sides");
  const how = document.getElementById("winbar-how");
  strip.replaceChildren();
  list.replaceChildren();
  if (!bar) {
    how.textContent = "working it out…";
    return;
  }
  const record = m.seq - 1;
  // an estimate without an interval on every figure is not drawn as one (the server
  // never sends one; a figure without its interval is never shown)
  const estimate = bar.method === "estimate";
  const bare = estimate && (bar.draw_ci95 == null || Object.values(bar.sides).some((s) => !s.ci95));
  if (bar.method === "working" || bare) {
    working(section, strip, how, bar, record);
    return;
  }
  section.classList.remove("working");
  section.dataset.method = bar.method;
  section.classList.toggle("estimate", estimate);
  const words = [];
  for (const [side, s] of Object.entries(bar.sides)) {
    const seg = el("span", { "data-side": side });
    seg.style.width = pct(s.win);
    seg.style.background = colour(side);
    strip.append(seg);
    const ci = s.ci95 ? ` (95%: ${said(s.ci95[0])}–${said(s.ci95[1])})` : "";
    const line = `${side}: ${estimate ? "about " : ""}${said(s.win, s.certain)}${ci}`;
    const li = el("li", { "data-side": side });
    const sw = el("span", { class: "swatch", "aria-hidden": "true" });
    sw.style.background = colour(side);
    li.append(sw, document.createTextNode(line));
    list.append(li);
    words.push(line);
  }
  if (bar.draw > 0) {
    const seg = el("span", { class: "draw" });
    seg.style.width = pct(bar.draw);
    strip.append(seg);
    const ci = estimate ? ` (95%: ${said(bar.draw_ci95[0])}–${said(bar.draw_ci95[1])})` : "";
    const line = `draw: ${estimate ? "about " : ""}${said(bar.draw, bar.draw_certain)}${ci}`;
    list.append(el("li", { "data-side": "" }, line));
    words.push(line);
  }
  const kind = { exact: "exact", float: "solved in floating point", estimate: "an estimate" }[bar.method];
  strip.setAttribute("aria-label", `win chance, ${kind}: ${words.join("; ")}`);
  const states = `${bar.states.toLocaleString("en")} ${bar.states === 1 ? "state" : "states"} of the fight, the lab's tactics`;
  let text;
  if (bar.method === "exact") {
    text = `Exact (${states}), after record ${record}.`;
  } else if (bar.method === "float") {
    text = `Solved in floating point (${states}; largest residual ${Number(bar.residual).toExponential(0)}), after record ${record}.`;
  } else {
    text = `An estimate from ${fights(bar.fights)} (the lab's tactics), after record ${record}` +
      (bar.final ? "." : (bar.growing ? `; refining, the fight's chain at ${bar.growing.toLocaleString("en")} ${bar.growing === 1 ? "state" : "states"}…` : "; refining…"));
  }
  how.textContent = text +
    (bar.idle && bar.idle.length
      ? ` ${bar.idle.join(", ")} only ${bar.idle.length === 1 ? "ends its turn" : "end their turns"} here: nothing in reach, and it does not walk (approach: false, or the table's move: 0).`
      : "");
}
