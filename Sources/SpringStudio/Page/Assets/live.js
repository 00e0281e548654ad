// Live touch (docs/Reference.md §10.16, live touch): with "feel it" on, the selected panel's phone takes
// pointer input (mouse, pen, touch; two touches for a pinch). Each pointer event drives the
// engine in the page (engine.js, the WebAssembly module of Reference §15) and the next display
// frame draws it; after the last lift the tail plays to rest. Every sample also goes to
// /api/live, which keeps the gesture in the session as a recording (live-N), listed under the
// stage with one button per intent and a box that adds it to the traces the trace list, rounds
// and evaluate use. Without WebAssembly the server's frames are drawn as they come instead.
// studio.js's trace list and panel requests come as the functions startLive is given.
import * as api from "./api.js";
import { $, button, showError } from "./dom.js";
import { instantiate, startGesture } from "./engine.js";
import { seconds } from "./format.js";
import { feelURL } from "./feel.js";
import { qrSvg } from "./qr.js";
import { clock, state } from "./state.js";
import { fingersDown, gestureReplay, phonePoint, pointerSamples, showGesture } from "./touch.js";

/// The live gesture: its socket and the messages queued until it opens, "feel it" on, the
/// fingers down (touch.js), the replay being drawn and its panel, frames drawn,
/// stats, the engine module's exports (null until loaded, or without WebAssembly) and the
/// gesture it runs (engine.js's startGesture; null when the server's frames are drawn), and the
/// server's `done` of the last gesture (its recording's id and the set it was felt with).
export const liveGesture = { socket: null, queue: [], on: false, fingers: fingersDown(), replay: null, panel: null, drawn: 0, stats: liveStats(),
  module: null, run: null, done: null };

/// studio.js's trace list and panels, as startLive was given them: `{showTraces, request}`.
let liveView = null;

/// What the page measures of a gesture (read by Tests/studio/live_page.py): `sent`, each
/// sample's event time (ms) and its time in the gesture (s) until the server's answer comes
/// (when the server's frames are drawn); `waiting`, samples stepped or answered and not yet
/// drawn, each `{at, arrived}`: its event time and when its event reached the page (ms);
/// `latencies`, event to drawn, `arrivals`, arrival to drawn (what the page itself adds), and
/// `deliveries`, event to arrival (the browser's input pipeline), ms per sample; `intervals`,
/// between drawn display frames (ms).
function liveStats() { return { sent: [], waiting: [], latencies: [], arrivals: [], deliveries: [], intervals: [], last: null, start: null }; }

/// Called after each display frame is drawn: the samples answered since were drawn now.
export function liveDrawn() {
  const s = liveGesture.stats;
  if (!liveGesture.replay || (!liveGesture.replay.live && s.waiting.length === 0)) return;
  const now = performance.now();
  for (const { at, arrived } of s.waiting) {
    s.latencies.push(now - at);
    s.arrivals.push(now - arrived);
    s.deliveries.push(arrived - at);
  }
  s.waiting = [];
  if (s.last !== null && liveGesture.replay.live) s.intervals.push(now - s.last);
  s.last = now;
}

/// The socket, opened on first use (the token in the query, as every API path takes it).
function liveSocket() {
  if (liveGesture.socket && liveGesture.socket.readyState <= 1) return liveGesture.socket;
  const socket = api.live();
  liveGesture.queue = [];
  socket.addEventListener("open", () => { for (const m of liveGesture.queue) socket.send(m); liveGesture.queue = []; });
  socket.addEventListener("message", (e) => liveAnswer(JSON.parse(e.data)));
  socket.addEventListener("close", (e) => { if (e.code !== 1000 && e.code !== 1005) showError("live: " + (e.reason || "the socket closed (" + e.code + ")"), "live"); });
  liveGesture.socket = socket;
  return socket;
}

function liveSend(message) {
  const text = JSON.stringify(message), socket = liveSocket();
  if (socket.readyState === 1) socket.send(text); else liveGesture.queue.push(text);
}

/// One pointer event's samples; a gesture opens on its first touch on the selected panel and
/// stays on that panel (another panel selected meanwhile does not take its fingers).
function livePointer(e, phase) {
  const opening = phase === "began" && liveGesture.fingers.ids.size === 0;
  const panel = opening ? state.panels[state.selected] : liveGesture.panel;
  if (!liveGesture.on || !panel || (phase !== "began" && !liveGesture.fingers.ids.has(e.pointerId))) return;
  e.preventDefault();
  if (opening) {
    liveGesture.replay = gestureReplay(state.preset.screen);
    liveGesture.panel = panel;
    liveGesture.stats = liveStats();
    liveGesture.fingers = fingersDown();
    liveGesture.run = null;
    if (liveGesture.module && panel.engine) {
      try { liveGesture.run = startGesture(liveGesture.module, panel.engine); } catch (error) { showError("live: " + error.message, "live"); }
    }
    // The set the page's engine runs (the one its numbers were answered for: the sliders may
    // have moved since), so that the recording names what was felt.
    const params = liveGesture.run ? panel.engine.params : panel.params;
    liveSend({ params, screen: state.preset.screen, dpr: window.devicePixelRatio || 1 });
    document.body.dataset.liveEngine = liveGesture.run ? "page" : "server";
  }
  if (phase === "began") panel.canvas.setPointerCapture(e.pointerId);
  const arrived = performance.now();
  for (const s of pointerSamples(liveGesture.fingers, e, phase, (each) => phonePoint(panel.canvas, state.preset.screen, each))) {
    liveSend({ t: s.t, phase, pointers: [{ id: s.pointer, x: s.x, y: s.y }] });
    if (liveGesture.stats.start === null) liveGesture.stats.start = s.at;
    if (liveGesture.run) {
      liveGesture.run.add(s);
      liveGesture.stats.waiting.push({ at: s.at, arrived });
    } else {
      liveGesture.stats.sent.push({ at: s.at, arrived, t: (s.at - liveGesture.stats.start) / 1000 });
    }
  }
  if (liveGesture.run) liveShow();
}

/// The page's frames of the gesture on the panel: while a finger is down the clock shows the
/// newest (the preview); after the last lift the tail plays on the clock from the lift's time
/// (a finger held still sent no events: the preview stayed at its last move).
function liveShow() {
  const replay = liveGesture.replay, wasLive = replay.live, last = showGesture(liveGesture.run, replay);
  if (!last) return;
  if (liveGesture.panel.replay !== replay) {
    liveGesture.panel.replay = replay;
    clock.playing = true;
  }
  if (replay.live) clock.t = last.t;
  else if (wasLive) clock.t = Math.min(liveGesture.run.lift, replay.rest);
  liveGesture.drawn = replay.frames.length;
  document.body.dataset.liveFrames = liveGesture.drawn;
}

/// Frames and the closing `done` from the server.
function liveAnswer(answer) {
  if (!liveGesture.replay) return;
  if (answer.frames && !liveGesture.run) {
    if (answer.frames.length && liveGesture.panel.replay !== liveGesture.replay) {
      liveGesture.panel.replay = liveGesture.replay;
      clock.t = 0;
      clock.playing = true;
    }
    liveGesture.replay.frames.push(...answer.frames);
    const last = liveGesture.replay.frames[liveGesture.replay.frames.length - 1];
    if (last) liveGesture.replay.rest = Math.max(liveGesture.replay.rest, last.t);
    // While the finger is down the newest frame is drawn (the tail after the lift plays on the clock).
    // While the finger is down the frame of the latest sample is drawn; after the lift the
    // tail plays on the clock from there.
    const sample = liveGesture.stats.sent.shift();
    if (liveGesture.replay.live && last && sample) {
      clock.t = Math.min(last.t, sample.t);
      if (answer.frames.length) liveGesture.stats.waiting.push({ at: sample.at, arrived: sample.arrived });
    }
    liveGesture.drawn += answer.frames.length;
    document.body.dataset.liveFrames = liveGesture.drawn;
  } else if (answer.done) {
    liveGesture.done = answer;
    if (!liveGesture.run) {
      liveGesture.replay.rest = answer.rest;
      liveGesture.replay.live = false;
    }
    document.body.dataset.liveDone = answer.trace;
    showRecordings();
  }
}

/// The session's recordings, each with a button per intent of the preset's labelled traces, and
/// the CSV link.
async function showRecordings() {
  const list = await api.recordings();
  const intents = [...new Set(state.preset.traces.map((t) => t.intent).filter(Boolean))].sort();
  $("recordings").replaceChildren(...list.recordings.map((r) => {
    const li = document.createElement("li");
    li.dataset.id = r.id;
    li.append(r.id + " · " + r.kind + " · " + seconds(r.duration, 2) + (r.intent ? " · " + r.intent : ""));
    for (const intent of intents) {
      const b = button(intent, "label");
      b.addEventListener("click", async () => { await liveUpdate(r.id, { intent }); });
      li.append(" ", b);
    }
    const use = document.createElement("input"), label = document.createElement("label");
    use.type = "checkbox";
    use.checked = r.used;
    use.addEventListener("change", async () => { await liveUpdate(r.id, { used: use.checked }); });
    label.append(use, " in traces");
    li.append(" ", label);
    return li;
  }));
  $("recordings-csv").href = api.recordingsCSVLink();
  $("recordings-box").hidden = list.recordings.length === 0;
}

/// Labels a recording or adds it to the traces (or takes it out): the lists and the panels follow.
async function liveUpdate(id, change) {
  try {
    await api.label(id, change);
    state.preset.traces = (await api.preset()).traces;
    liveView.showTraces();
    // The panels' metrics (and their trace, if it left the list) are measured over the new traces.
    if ("used" in change || "intent" in change) state.panels.forEach(liveView.request);
  } catch (e) {
    showError(String(e.message || e), "live");
  }
  showRecordings();
}

/// The "feel it" box, the pointer handlers, the QR code and the recordings; `panels` is
/// studio.js's `{showTraces, request}` (the trace list again; a panel's replay and row again).
export function startLive(panels) {
  liveView = panels;
  $("live").addEventListener("change", () => {
    liveGesture.on = $("live").checked;
    document.body.dataset.live = liveGesture.on ? "on" : "off";
  });
  const stage = $("panels");
  stage.addEventListener("pointerdown", (e) => { if (e.target === state.panels[state.selected]?.canvas) livePointer(e, "began"); });
  stage.addEventListener("pointermove", (e) => livePointer(e, "moved"));
  stage.addEventListener("pointerup", (e) => livePointer(e, "ended"));
  stage.addEventListener("pointercancel", (e) => livePointer(e, "cancelled"));
  $("qr").innerHTML = qrSvg(feelURL(location.href), { scale: 3 });
  showRecordings().catch(() => {});
  // The engine module; without it (no WebAssembly, or it failed to load) the server's frames are drawn.
  fetch("/engine.wasm").then((r) => r.arrayBuffer()).then(instantiate).then((module) => {
    liveGesture.module = module;
    document.body.dataset.engine = "ready";
  }).catch((error) => { document.body.dataset.engine = "none: " + (error.message || error); });
}
