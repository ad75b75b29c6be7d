// fracas serve: the game master's party controls (issue 36), shown once the fight is
// over (state.outcome). "Write back to the party" keeps what lasts of this fight as it
// stands (an undo before it counts); "Next fight with this party" writes back, then
// starts the next encounter (a stored one's setup afresh, or a file) with the party
// brought in, and opens its game master's page. Loaded by app.js when first needed;
// only draws and asks: the server (fracas/web/party.py, the table's party) decides.
import { $, el } from "./dom.js";
import { api } from "./state.js";

let asked = false;

const said = (text) => { $("party-said").textContent = text; };

function build() {
  const box = el("section", { id: "party-box", "aria-labelledby": "party-h" });
  const name = el("input", { id: "party-name", list: "party-names", autocomplete: "off", "data-key": "party:name" });
  const next = el("select", { id: "party-next", "data-key": "party:next" });
  const file = el("input", { type: "file", id: "party-file", accept: ".yaml,.yml,.json" });
  const write = el("button", { type: "button", id: "party-write" }, "Write back to the party");
  const go = el("button", { type: "button", id: "party-go" }, "Next fight with this party");
  const row = (...parts) => { const r = el("div", { class: "row" }); r.append(...parts); return r; };
  box.append(
    el("h2", { id: "party-h" }, "The party"),
    el("p", { id: "party-lasting" }),
    row(el("label", { for: "party-name" }, "Party "), name, el("datalist", { id: "party-names" }), write),
    row(el("label", { for: "party-next" }, "Next fight "), next,
      el("label", { for: "party-file" }, " or a file "), file, go),
    el("p", { id: "party-said", role: "status" }),
  );
  $("outcome").after(box);
  write.addEventListener("click", async () => {
    try {
      const data = await api("/api/party/write-back", "POST", { party: name.value.trim() });
      const p = data.party;
      said(`Written back to ${p.name}: ${p.members.map((m) => `${m.name} ${m.hp}/${m.max_hp} HP`).join(", ")}`);
    } catch (e) { said(e.message); }
  });
  go.addEventListener("click", async () => {
    const body = { party: name.value.trim() };
    try {
      if (file.files[0]) { body.text = await file.files[0].text(); body.source = file.files[0].name; }
      else body.from = next.value;
      const data = await api("/api/party/next", "POST", body);
      location.assign(data.gm);
    } catch (e) { said(e.message); }
  });
  return box;
}

async function fill() {
  const data = await api("/api/party");
  $("party-lasting").textContent = `What lasts between fights: ${data.lasting}.`;
  if (data.party) $("party-name").value = data.party;
  else if (!$("party-name").value) $("party-name").value = data.parties[0] || "party";
  $("party-names").replaceChildren(...data.parties.map((p) => el("option", { value: p })));
  const next = $("party-next");
  // none stored but this one: said in the select itself, which waits for a file
  next.replaceChildren(...(data.encounters.length
    ? data.encounters.map((n) => el("option", { value: n }, n))
    : [el("option", { value: "" }, "no other encounter stored: choose a file")]));
  next.disabled = !data.encounters.length;
}

// The table moved on (app.js): shown while the fight is over, hidden when it reopens.
export function follow(state) {
  const box = $("party-box") || build();
  box.hidden = !state.outcome;
  if (state.outcome && !asked) {
    asked = true;
    fill().catch((e) => { asked = false; said(e.message); });
  }
}
