// The sides' colours, one per side in the order first seen: the map's tokens and the
// win bar's segments match.

const SIDE_COLOURS = ["#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9"];
// the initials' ink on each side colour: the one of white and black with the higher
// contrast (white on the blue 5.2:1; black on the others 5.4:1 to 9.3:1)
const SIDE_INKS = ["#fff", "#000", "#000", "#000", "#000", "#000"];
const sides = [];

export function sideColour(side) {
  if (!sides.includes(side)) sides.push(side);
  return SIDE_COLOURS[sides.indexOf(side) % SIDE_COLOURS.length];
}

export function sideInk(side) {
  sideColour(side);
  return SIDE_INKS[sides.indexOf(side) % SIDE_INKS.length];
}
