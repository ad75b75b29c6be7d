"use strict";

// Links that never get lost, and who won. The game master's list shows each player
// link's address, a copy button and its QR code (an SVG the server made); every page
// shows the winner's banner once one side alone stands (state.outcome, decided by the
// table service). Only draws: every change goes back to the server.
window.fracasLinks = (() => {
  const $ = (id) => document.getElementById(id);

  function node(tag, attrs = {}, text = "") {
    const n = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs)) n.setAttribute(k, v);
    if (text) n.textContent = text;
    return n;
  }

  // The address, "Copy" and the QR code of one listed link (nothing for a revoked one).
  function row(link) {
    if (!link.url) return [];
    const box = node("div", { class: "link-url" });
    const input = node("input", { readonly: "", value: link.url, "aria-label": `${link.name}'s link`, class: "link-address" });
    const copy = node("button", { type: "button", class: "link-copy" }, `Copy ${link.name}'s link`);
    copy.addEventListener("click", async () => {
      try { await navigator.clipboard.writeText(link.url); copy.textContent = "Copied"; } catch (e) {
        input.select(); document.execCommand("copy"); copy.textContent = "Copied";
      }
      setTimeout(() => { copy.textContent = `Copy ${link.name}'s link`; }, 1500);
    });
    const qr = node("img", { class: "link-qr", alt: `QR code of ${link.name}'s link`,
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
      b = node("button", { type: "button", id: "gm-finish" });
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

  window.addEventListener("fracas:state", (e) => banner(e.detail));
  return { row };
})();
