// Feel mode (`?feel`, Reference §10.16; the QR code of "on a phone" opens it): the selected
// candidate's phone alone on the whole window, live touch on (each touch steps the engine in
// the page, live.js), drawn at the display's rate and pixel ratio, and a bar to switch among the
// candidates without leaving it: every panel, and the model's best once the designer has
// answered a round. Nothing under the finger scrolls or zooms (touch-action and overscroll in
// studio.css). studio.js's panel functions come as the arguments of startFeel.
import * as api from "./api.js";
import { $ } from "./dom.js";
import { seeing } from "./stage.js";
import { state } from "./state.js";

/// True when the page was opened with `?feel`.
export function feelMode() { return new URLSearchParams(globalThis.location ? globalThis.location.search : "").has("feel"); }

/// studio.js's `{addPanel, select}` as startFeel was given them.
let feelView = null;

/// The address that opens this page in feel mode (what the QR code encodes).
export function feelURL(href) {
  const url = new URL(href);
  url.searchParams.set("feel", "");
  return url.href.replace(/feel=(?=&|$)/, "feel");
}

/// The switch: one button per panel, named as its title ("preset", "best", "candidate N"), the
/// selected one pressed. Called whenever the panels or the selection change.
export function showFeelSwitch() {
  if (!seeing.feel) return;
  $("feel-switch").replaceChildren(...state.panels.map((panel, i) => {
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = panel.title.textContent;
    b.setAttribute("aria-pressed", String(i === state.selected));
    b.addEventListener("click", () => feelView.select(i));
    return b;
  }));
}

/// Turns feel mode on: live touch on, the switch shown, and, when the session has a best and a
/// single panel (the preset's values) is shown, the best beside it as a second candidate, shown.
export function startFeel(panels) {
  feelView = panels;
  seeing.feel = true;
  document.body.dataset.feel = "on";
  const live = $("live");
  live.checked = true;
  live.dispatchEvent(new Event("change"));
  showFeelSwitch();
  api.best().then((best) => {
    if (best.choices === 0 || state.panels.length !== 1) return;
    state.panels[0].name = "preset";
    feelView.addPanel(best.params, null, "best");
  }).catch(() => {});
}
