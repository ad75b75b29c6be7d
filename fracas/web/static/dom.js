// One element maker for every script of the pages (the table's and the setup page's):
// el("li", {class: "x", hidden: true}, "text"); "svg:circle" makes an SVG element. An
// attribute whose value is null, undefined or false is left out; true sets it empty.
"use strict";

const SVG = "http://www.w3.org/2000/svg";

function el(tag, attrs = {}, text = "") {
  const node = tag.startsWith("svg:") ? document.createElementNS(SVG, tag.slice(4)) : document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v !== null && v !== undefined && v !== false) node.setAttribute(k, v === true ? "" : v);
  }
  if (text) node.textContent = text;
  return node;
}
