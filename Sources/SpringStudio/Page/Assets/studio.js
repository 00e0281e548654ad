// The studio's page (Reference §10.16): 1 to 4 candidate panels replaying one trace side by side
// on one clock. One set of sliders edits the selected panel; every change asks the studio for
// the replay (frames and per-trace metrics) and the report row over every trace (metrics that
// the objective's constraints and targets name). In round mode (Reference §12) the panels are
// the open round's candidates and the designer answers "which is worst?"; the best box shows the
// model's best set. No network beyond this studio, no build step.
//
// The page's entry module (index.html loads it with <script type="module">); the other files
// are imported, each through explicit import/export, and none imports this one: learn.js,
// levers.js and live.js get the functions of this file they call (replacePanels, buildAxes,
// showTraces, request) as arguments of their start functions. Tests/page/shared_names.mjs
// checks that no top-level name is shared across the page's files otherwise.
import * as api from "./api.js";
import { $, button, showError } from "./dom.js";
import { axisLabel, objectiveText, seconds, short, withUnit } from "./format.js";
import { startArt } from "./art.js";
import { feelMode, showFeelSwitch, startFeel } from "./feel.js";
import { answer, learn, noiseLabel, startLearning } from "./learn.js";
import { startLevers } from "./levers.js";
import { liveGesture, liveDrawn, startLive } from "./live.js";
import { showMetrics } from "./metrics.js";
import { controlToValue, SLIDER_STEPS, valueToControl } from "./sliders.js";
import { drawStage, interpolatedFrame, makeMagnifier, seeing, setActualSize } from "./stage.js";
import { clock, state } from "./state.js";

const MAX_PANELS = 4;
const DEBOUNCE_MS = 30;

/// A slider (or a choice of words) per free parameter; again after the levers change.
function buildAxes() {
  const box = $("axes");
  for (const old of box.querySelectorAll("label")) old.remove();
  for (const axis of state.preset.axes) {
    const label = document.createElement("label");
    const text = document.createElement("span");
    let input;
    if (axis.words) {
      input = document.createElement("select");
      for (const w of axis.words) input.append(new Option(w, w));
    } else {
      input = document.createElement("input");
      Object.assign(input, { type: "range", min: 0, max: SLIDER_STEPS, step: 1 });
    }
    input.dataset.axis = axis.name;
    input.addEventListener("input", () => {
      const v = controlToValue(axis, input.value);
      state.panels[state.selected].params[axis.name] = v;
      text.textContent = axisLabel(axis, v);
      request(state.panels[state.selected]);
    });
    label.append(text, input);
    box.append(label);
  }
}

/// The sliders show the selected panel's values.
function syncAxes() {
  const params = state.panels[state.selected].params;
  for (const axis of state.preset.axes) {
    const input = document.querySelector(`[data-axis="${axis.name}"]`);
    input.value = valueToControl(axis, params[axis.name]);
    input.previousElementSibling.textContent = axisLabel(axis, params[axis.name]);
  }
}

// ---- panels
/// A panel showing `params`; with `candidate` (a round's `{id}`) it has "worst" and "best"
/// buttons instead of "remove"; `name` is its title ("best"; else "candidate N").
function addPanel(params, candidate, name) {
  if (state.panels.length >= MAX_PANELS) return;
  const el = document.createElement("article");
  el.className = "panel";
  const canvas = document.createElement("canvas");
  canvas.className = "stage";
  const side = document.createElement("div");
  side.className = "side";
  const title = document.createElement("h2");
  const values = document.createElement("p");
  values.className = "values";
  const magnifier = makeMagnifier();
  const buttons = candidate ? ["worst", "best"].map((kind) => button(kind, kind)) : [button("remove", "remove")];
  const noise = candidate ? noiseLabel(candidate) : null;
  const metrics = document.createElement("dl");
  metrics.className = "metrics";
  const objective = document.createElement("div");
  objective.className = "objective";
  if (candidate) {
    const answers = document.createElement("div");
    answers.className = "answers";
    answers.append(...buttons);
    side.append(title, values, answers, ...(noise ? [noise] : []), magnifier.figure, metrics, objective);
  } else {
    side.append(title, values, ...buttons, magnifier.figure, metrics, objective);
  }
  el.append(canvas, side);
  $("panels").append(el);
  const panel = { params: { ...params }, name, replay: null, engine: null, row: null, seq: 0, timer: 0, el, canvas, magnifier, values, metrics, objective, title };
  el.addEventListener("click", () => select(state.panels.indexOf(panel)));
  for (const b of buttons) {
    b.disabled = learn.busy;
    b.addEventListener("click", (e) => {
      e.stopPropagation();
      if (candidate) answer({ [b.className]: candidate.id }); else removePanel(panel);
    });
  }
  state.panels.push(panel);
  select(state.panels.length - 1);
  request(panel);
}

/// The panel's values under its title, compact ("damping 0.5", "frequency 4 Hz", …), units from
/// `preset.parameters` when the preset has them, else `preset.axes`. Called every animation frame
/// (the sliders change `panel.params` in place); rewritten only when the values changed.
function showValues(panel) {
  const key = JSON.stringify(panel.params);
  if (panel.values.dataset.params === key) return;
  panel.values.dataset.params = key;
  const units = new Map((state.preset.parameters || state.preset.axes).map((p) => [p.name, p.unit]));
  panel.values.replaceChildren(...Object.entries(panel.params).map(([name, v]) => {
    const item = document.createElement("span");
    item.textContent = name + " " + (typeof v === "number" ? withUnit(short(v), units.get(name)) : v);
    return item;
  }));
}

function removePanel(panel) {
  if (state.panels.length === 1) return;
  state.panels.splice(state.panels.indexOf(panel), 1);
  panel.el.remove();
  select(Math.min(state.selected, state.panels.length - 1));
}

/// Drops every panel (late answers to them are ignored) and shows `list` of `{params, candidate}`.
function replacePanels(list) {
  for (const p of state.panels) { clearTimeout(p.timer); p.seq++; p.el.remove(); }
  state.panels = [];
  for (const { params, candidate } of list) addPanel(params, candidate);
  select(0);
}

function select(i) {
  state.selected = i;
  state.panels.forEach((p, k) => {
    p.el.classList.toggle("selected", k === i);
    p.title.textContent = p.name || "candidate " + (k + 1);
  });
  showFeelSwitch();
  $("add").disabled = state.panels.length >= MAX_PANELS || learn.open !== null;
  for (const b of document.querySelectorAll(".panel .remove")) b.disabled = state.panels.length === 1;
  syncAxes();
  showCopy(null);
  layoutPanels();
}

/// The phone's drawn width in a fitted panel (CSS px): full size, and the least it shrinks to so
/// that every panel fits in one row.
const STAGE_WIDTH = 190, MIN_STAGE_WIDTH = 110;

/// Panels side by side. In the fitted view: in one row when they fit with the phone shrunk to no
/// less than MIN_STAGE_WIDTH (1400 px holds four at 115 px), otherwise at full size in even rows
/// (four that fit three to a row show as two and two, not three and one), and one to a row with
/// the phone shrunk to fit where not even one fits at full size (a 390 px window: 140 px). At
/// actual size (stage.js) the phone keeps the screen's size in CSS px (--screen-width and
/// --screen-height, studio.css) and the panels go in even rows; one wider than the window
/// scrolls sideways in #panels. The best box stays beside the panels while they fit in one row
/// there, and goes below them when that lets them.
function layoutPanels() {
  const box = $("panels"), stage = $("stage"), best = $("best");
  box.style.removeProperty("--stage-width");
  box.style.setProperty("--screen-width", state.preset.screen[0] + "px");
  box.style.setProperty("--screen-height", state.preset.screen[1] + "px");
  box.style.maxWidth = "";
  stage.classList.remove("best-below");
  const panels = state.panels, n = panels.length;
  if (n === 0) return;
  const gap = parseFloat(getComputedStyle(box).columnGap) || 0;
  const width = panels[0].el.offsetWidth, chrome = width - panels[0].canvas.offsetWidth;
  // The phone's width (px) with every panel in one row `room` px wide, in the fitted view.
  const phone = (room) => Math.min(STAGE_WIDTH, Math.floor((room - (n - 1) * gap) / n) - chrome);
  const fits = (room) => seeing.actualSize ? n * (width + gap) - gap <= room : phone(room) >= MIN_STAGE_WIDTH;
  const beside = best.hidden || window.matchMedia("(max-width: 940px)").matches ? 0 : best.offsetWidth + gap;
  let room = stage.clientWidth - beside;
  if (beside > 0 && !fits(room) && fits(stage.clientWidth)) {
    stage.classList.add("best-below");
    room = stage.clientWidth;
  }
  if (fits(room)) {
    if (!seeing.actualSize) box.style.setProperty("--stage-width", phone(room) + "px");
    return;
  }
  const fit = Math.floor((room + gap) / (width + gap));
  if (fit === 0 && !seeing.actualSize) {
    box.style.setProperty("--stage-width", Math.max(60, room - chrome) + "px");
    return;
  }
  const perRow = Math.ceil(n / Math.ceil(n / Math.max(1, fit)));
  box.style.maxWidth = perRow * (width + gap) - gap + 1 + "px";
}

/// Debounced: the replay of the chosen trace and the report row; answers to an older request
/// of the same panel are dropped.
function request(panel) {
  clearTimeout(panel.timer);
  panel.timer = setTimeout(async () => {
    const seq = ++panel.seq;
    const params = { ...panel.params };
    try {
      const [replay, row] = await Promise.all([
        api.replay(params, [$("trace").value]),
        api.evaluate(params),
      ]);
      if (seq !== panel.seq) return;
      panel.replay = replay.replays[0];
      panel.engine = { ...replay.engine, params };
      panel.row = row.metrics;
      panel.metrics.dataset.params = JSON.stringify(params);
      showMetrics(panel.metrics, state.preset.metrics, row.metrics, row.verdicts, row.intervals);
      panel.objective.textContent = objectiveText(state.preset.objective);
      showError("", "replay");
    } catch (e) {
      if (seq === panel.seq) showError(String(e.message || e), "replay");
    }
  }, DEBOUNCE_MS);
}

// ---- drawing (stage.js draws; this loop runs the clock)
/// The longest rest time of the panels (s): the scrub range and the loop length.
function restTime() { return Math.max(0.001, ...state.panels.filter((p) => p.replay).map((p) => p.replay.rest)); }

function tick(now) {
  const rest = restTime();
  // While a live finger is down the newest frame is shown: the clock waits for the answers.
  if (clock.playing && clock.last !== null && !(liveGesture.replay && liveGesture.replay.live)) {
    clock.t += (now - clock.last) / 1000 * clock.speed;
    if (clock.t > rest + 0.5) clock.t = 0; // hold the end for half a second, then loop
  }
  clock.last = now;
  const shown = Math.min(clock.t, rest);
  $("scrub").max = rest;
  $("scrub").value = shown;
  $("time").textContent = seconds(shown, 3) + " / " + seconds(rest, 3);
  for (const p of state.panels) showValues(p);
  drawStage(state.panels, clock.t);
  liveDrawn();
  const ready = state.panels.filter((p) => p.replay);
  if (ready.length === state.panels.length && document.body.dataset.state !== "ready") document.body.dataset.state = "ready";
  requestAnimationFrame(tick);
}

// ---- copy as: the server writes the selected set in the form `springtune export --format`
// writes (every parameter, the designer's objective), so the page and the command line agree.
async function showCopy(kind) {
  $("copy-box").hidden = kind === null;
  if (kind === null) return;
  try {
    const answer = await api.code(state.panels[state.selected].params, kind);
    $("copy").value = answer.text;
    $("copy").select();
  } catch (e) {
    showError(String(e.message || e), "replay");
  }
}

// ---- start
/// The trace list, from `preset.traces` (the trace files' and the recordings added to them);
/// the chosen trace stays chosen while it is listed.
function showTraces() {
  const chosen = $("trace").value;
  $("trace").replaceChildren(...state.preset.traces.map((t) => new Option(t.id + " — " + t.kind + (t.intent ? ", " + t.intent : ""), t.id)));
  if (state.preset.traces.some((t) => t.id === chosen)) $("trace").value = chosen;
}

async function start() {
  try {
    state.preset = await api.preset();
  } catch (e) {
    showError("cannot load the preset: " + (e.message || e) + (api.hasToken() ? "" : " (open the URL with its ?token=)"), "start");
    return;
  }
  $("preset-name").textContent = "— " + state.preset.name + " (" + state.preset.model + ")";
  showTraces();
  $("trace").addEventListener("change", () => { clock.t = 0; state.panels.forEach(request); });
  buildAxes();
  $("play").addEventListener("click", () => {
    clock.playing = !clock.playing;
    $("play").textContent = clock.playing ? "pause" : "play";
  });
  $("scrub").addEventListener("input", () => { clock.t = Number($("scrub").value); });
  $("speed").addEventListener("change", () => { clock.speed = Number($("speed").value); });
  $("add").addEventListener("click", () => addPanel(state.panels[state.selected].params));
  $("copy-json").addEventListener("click", () => showCopy("json"));
  $("copy-swiftui").addEventListener("click", () => showCopy("swiftui"));
  $("copy-compose").addEventListener("click", () => showCopy("compose"));
  startLearning({ replacePanels });
  startLevers({ buildAxes, replacePanels });
  startLive({ showTraces, request });
  startArt();
  addPanel(Object.fromEntries(state.preset.axes.map((a) => [a.name, a.preset])));
  if (feelMode()) startFeel({ addPanel, select });
  // Laid out in the next frame, not inside the observer (which would see its own change).
  const relayout = new ResizeObserver(() => requestAnimationFrame(layoutPanels));
  relayout.observe($("stage"));
  relayout.observe($("best"));
  requestAnimationFrame(tick);
}

// ---- the view: the playback fieldset's "actual size" box, its state read at load too (so a box
// the browser restored on reload applies).
{
  const box = $("actual-size");
  setActualSize(box.checked);
  box.addEventListener("change", () => { setActualSize(box.checked); layoutPanels(); });
}

/// The browser tests' handle on the page (Tests/studio/*.py through execute_script), its only
/// global: no page file reads it. `preset` and `panels` are read through getters (both are
/// replaced as the page goes); the others are the objects the page itself uses.
window.studioPage = {
  get preset() { return state.preset; },
  get panels() { return state.panels; },
  clock, seeing, learn, live: liveGesture, interpolatedFrame,
};

start();
