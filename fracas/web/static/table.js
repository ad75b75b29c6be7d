// The table's rules (its policy) and the players' requests, on every page: what a
// player reads in words, what the game master changes with a control. Every change is
// a message to the server, which decides (state.js's send); this only draws what the
// state says.
import { $ } from "./dom.js";
import { send } from "./state.js";

const FLAGS = ["player_undo", "player_move", "winbar", "advisor"];
let policy = null;

function item(text, ...buttons) {
  const li = document.createElement("li");
  li.append(document.createTextNode(text), ...buttons);
  return li;
}

function button(text, key, onClick) {
  const b = document.createElement("button");
  b.type = "button";
  b.dataset.key = key;
  b.textContent = text;
  b.addEventListener("click", onClick);
  return b;
}

function drawRequests(state) {
  const gm = state.you.role === "gm";
  const list = $("requests");
  const asked = state.requests || [];
  $("requests-box").hidden = asked.length === 0;
  list.replaceChildren(...asked.map((r) => gm
    ? item(`${r.text} (${r.action_words || r.action}) `,
      button("Accept", `request:${r.id}:accept`, () => send({ type: "answer", request: r.id, accept: true })),
      document.createTextNode(" "),
      button("Refuse", `request:${r.id}:refuse`, () => send({ type: "answer", request: r.id, accept: false })))
    : item(`Waiting for the game master: ${r.text}`)));
}

function drawPolicy(state) {
  policy = state.policy;
  $("policy-words").replaceChildren(...policy.words.map((w) => item(w)));
  const form = $("policy-form");
  form.hidden = state.you.role !== "gm";
  if (form.hidden) return;
  for (const f of FLAGS) $(`policy-${f}`).checked = policy[f];
  $("policy-enemy_hp").value = policy.enemy_hp;
  const box = $("policy-calls");
  const legend = box.querySelector("legend");
  const calls = policy.calls || [];
  box.hidden = calls.length === 0;
  box.replaceChildren(legend, ...calls.map((c) => {
    const label = document.createElement("label");
    const input = document.createElement("input");
    input.type = "checkbox";
    input.value = c;
    input.dataset.key = `call:${c}`;
    input.checked = policy.player_calls.includes(c);
    input.addEventListener("change", () => {
      const mine = [...box.querySelectorAll("input:checked")].map((i) => i.value);
      send({ type: "policy", changes: { player_calls: mine } });
    });
    label.append(input, document.createTextNode(` ${c.replace(/_/g, " ")}`));
    return label;
  }));
}

export function setup() {
  for (const f of FLAGS) {
    $(`policy-${f}`).addEventListener("change", (e) =>
      send({ type: "policy", changes: { [f]: e.target.checked } }));
  }
  $("policy-enemy_hp").addEventListener("change", (e) =>
    send({ type: "policy", changes: { enemy_hp: e.target.value } }));
}

// The table moved on (app.js, at each sync).
export function follow(state) { drawRequests(state); drawPolicy(state); }
