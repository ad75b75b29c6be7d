// Links that never get lost, and who won. The game master's list shows each player
// link's address, a copy button and its QR code (an SVG the server made); every page
// shows the winner's banner once one side alone stands (state.outcome, decided by the
// table service). Only draws: every change goes back to the server.
import { $, el, SVG } from "./dom.js";
import { store, token, send, notice } from "./state.js";

// The address, "Copy" and the QR code of one listed link (nothing for a revoked one).
export function row(link) {
  if (!link.url) return [];
  const box = el("div", { class: "link-url" });
  const input = el("input", { readonly: "", value: link.url, "aria-label": `${link.name}'s link`, class: "link-address", "data-key": `link:${link.id}:address` });
  const copy = el("button", { type: "button", class: "link-copy", "data-key": `link:${link.id}:copy` }, `Copy ${link.name}'s link`);
  copy.addEventListener("click", async () => {
    try { await navigator.clipboard.writeText(link.url); copy.textContent = "Copied"; } catch (e) {
      input.select(); document.execCommand("copy"); copy.textContent = "Copied";
    }
    setTimeout(() => { copy.textContent = `Copy ${link.name}'s link`; }, 1500);
  });
  const qr = el("img", { class: "link-qr", alt: `QR code of ${link.name}'s link`,
    src: `data:image/svg+xml;charset=utf-8,${encodeURIComponent(link.qr)}` });
  box.append(input, copy, qr);
  return [box];
}

// The game master's "Finish the fight" / "Reopen the fight" (logged table actions,
// `finish` and `reopen`; the table refuses them to a player).
function finishButton(state) {
  let b = $("gm-finish");
  if (state.you.role !== "gm") { if (b) b.remove(); return; }
  if (!b) {
    b = el("button", { type: "button", id: "gm-finish" });
    b.addEventListener("click", () => {
      const ended = b.dataset.ended === "true";
      send({ type: "act", action: { actor: b.dataset.actor, do: ended ? "reopen" : "finish" } });
    });
    $("table-buttons").append(b);
  }
  const ended = Boolean(state.outcome && state.outcome.ended);
  b.dataset.ended = String(ended);
  b.dataset.actor = state.turn || state.order[0] || "";
  b.textContent = ended ? "Reopen the fight" : "Finish the fight";
}

function banner(state) {
  const b = $("outcome");
  if (!b) return;
  const done = state.outcome;
  b.hidden = !done;
  b.textContent = done ? done.words : "";
  finishButton(state);
}

// The map image, under the grid (served at /map/TOKEN; none: nothing drawn), and the
// game master's upload (the table checks the bytes are a PNG, JPEG or WebP image).
// The state carries the image's version (state.map_image): a new one, put by the game
// master from any page, is fetched at once on every open page; none: nothing drawn.
let imageShown; // the version drawn (undefined: none asked yet)
function mapImage(state) {
  const svg = $("map");
  if (!svg) return;
  const size = state.bounds || store.mapSize; // no map: the grid the page draws
  let img = $("map-image");
  if (!img) {
    img = document.createElementNS(SVG, "image");
    img.id = "map-image";
    img.setAttribute("x", "0");
    img.setAttribute("y", "0");
    img.setAttribute("preserveAspectRatio", "none");
    img.setAttribute("aria-hidden", "true");
    img.addEventListener("error", () => img.setAttribute("display", "none"));
    img.addEventListener("load", () => img.removeAttribute("display"));
    svg.insertBefore(img, $("grid-rect"));
  }
  img.setAttribute("width", String(size[0] * 40));
  img.setAttribute("height", String(size[1] * 40));
  const version = state.map_image || null;
  if (version !== imageShown) {
    imageShown = version;
    img.setAttribute("data-version", version || "");
    if (version) img.setAttribute("href", `/map/${token}?v=${version}`);
    else { img.removeAttribute("href"); img.setAttribute("display", "none"); }
  }
  if (state.you.role === "gm" && !$("map-upload")) {
    const row = el("div", { class: "row" });
    const label = el("label", {}, "Map image (PNG, JPEG or WebP, at most 4 MiB) ");
    const input = el("input", { type: "file", id: "map-upload", accept: "image/png,image/jpeg,image/webp" });
    label.append(input);
    const drop = el("button", { type: "button", id: "map-remove" }, "Remove the map image");
    row.append(label, drop);
    $("gm-box").append(row);
    input.addEventListener("change", async () => {
      const file = input.files[0];
      if (!file) return;
      const r = await fetch("/api/map", { method: "PUT", headers: { Authorization: `Bearer ${token}` }, body: file });
      input.value = ""; // the same file picked again (edited since) is uploaded again
      const data = await r.json();
      if (!r.ok) { notice(data.message); return; }
      notice(""); // the table tells every page of the new image (state.map_image)
    });
    drop.addEventListener("click", async () => {
      const r = await fetch("/api/map", { method: "DELETE", headers: { Authorization: `Bearer ${token}` } });
      if (!r.ok) { const data = await r.json(); notice(data.message); }
    });
  }
}

// The table moved on (app.js, at each sync).
export function follow(state) { banner(state); mapImage(state); }
