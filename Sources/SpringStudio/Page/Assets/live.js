// Live touch (docs/Reference.md §10.16, live touch): with "feel it" on, the selected panel's phone takes
// pointer input (mouse, pen, touch; two touches for a pinch). Each pointer event goes to
// /api/live as a sample in the phone's points; the frames the server answers are drawn as they
// come, and after the last lift the tail plays to rest. Every gesture is kept in the session
// as a recording (live-N), listed under the stage with one button per intent and a box that
// adds it to the traces the trace list, rounds and evaluate use.
// studio.js's trace list and panel requests come as the functions startLive is given.
import * as api from "./api.js";
import { $, button, showError } from "./dom.js";
import { seconds } from "./format.js";
import { qrSvg } from "./qr.js";
import { FITTED_PAD, seeing } from "./stage.js";
import { clock, state } from "./state.js";

/// The live gesture: its socket and the messages queued until it opens, "feel it" on, the
/// pointers down (id -> finger number), the replay being drawn and its panel, frames drawn, stats.
export const liveGesture = { socket: null, queue: [], on: false, ids: new Map(), replay: null, panel: null, drawn: 0, stats: liveStats() };

/// studio.js's trace list and panels, as startLive was given them: `{showTraces, request}`.
let liveView = null;

/// What the page measures of a gesture (read by Tests/studio/live_page.py): `sent`, each
/// sample's event time (ms) and its time in the gesture (s) until its answer comes; `waiting`, answered samples not yet drawn;
/// `latencies`, event to drawn (ms) per sample; `intervals`, between drawn display frames (ms);
/// `lastAt`, the event time of the last sample sent.
function liveStats() { return { sent: [], waiting: [], latencies: [], intervals: [], last: null, start: null, lastAt: -Infinity }; }

/// Called after each display frame is drawn: the samples answered since were drawn now.
export function liveDrawn() {
  const s = liveGesture.stats;
  if (!liveGesture.replay || (!liveGesture.replay.live && s.waiting.length === 0)) return;
  const now = performance.now();
  for (const at of s.waiting) s.latencies.push(now - at);
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

/// A pointer event's place on the panel's phone (pt), inverting drawPhone's fit.
function livePoint(panel, e) {
  const rect = panel.canvas.getBoundingClientRect(), [w, h] = state.preset.screen;
  const pad = seeing.actualSize ? 0 : FITTED_PAD;
  const scale = Math.min((rect.width - 2 * pad) / w, (rect.height - 2 * pad) / h);
  const x0 = (rect.width - w * scale) / 2, y0 = (rect.height - h * scale) / 2;
  return { x: (e.clientX - rect.left - x0) / scale, y: (e.clientY - rect.top - y0) / scale };
}

/// One pointer event as a sample; a gesture opens on its first touch with the panel's values.
function livePointer(e, phase) {
  const panel = state.panels[state.selected];
  if (!liveGesture.on || !panel || (phase !== "began" && !liveGesture.ids.has(e.pointerId))) return;
  e.preventDefault();
  if (phase === "began") {
    if (liveGesture.ids.size === 0) {
      liveSend({ params: panel.params, screen: state.preset.screen, dpr: window.devicePixelRatio || 1 });
      // Drawn from its first frame on (the stage needs frames to draw).
      liveGesture.replay = { screen: state.preset.screen, frames: [], rest: 0, live: true };
      liveGesture.panel = panel;
      liveGesture.stats = liveStats();
    }
    liveGesture.ids.set(e.pointerId, Math.min(...[0, 1, 2, 3, 4, 5, 6, 7, 8, 9].filter((n) => ![...liveGesture.ids.values()].includes(n))));
    panel.canvas.setPointerCapture(e.pointerId);
  }
  // A browser hands over the moves of one display frame as one event: each is a sample.
  const samples = phase === "moved" && e.getCoalescedEvents ? e.getCoalescedEvents() : [];
  for (const each of samples.length ? samples : [e]) {
    // Two fingers' coalesced moves come pointer by pointer: one older than the last sent is dropped.
    if (each.timeStamp < liveGesture.stats.lastAt) continue;
    liveGesture.stats.lastAt = each.timeStamp;
    const { x, y } = livePoint(panel, each);
    liveSend({ t: each.timeStamp / 1000, phase, pointers: [{ id: liveGesture.ids.get(e.pointerId), x, y }] });
    if (liveGesture.stats.start === null) liveGesture.stats.start = each.timeStamp;
    liveGesture.stats.sent.push({ at: each.timeStamp, t: (each.timeStamp - liveGesture.stats.start) / 1000 });
  }
  if (phase === "ended" || phase === "cancelled") liveGesture.ids.delete(e.pointerId);
}

/// Frames and the closing `done` from the server.
function liveAnswer(answer) {
  if (!liveGesture.replay) return;
  if (answer.frames) {
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
      if (answer.frames.length) liveGesture.stats.waiting.push(sample.at);
    }
    liveGesture.drawn += answer.frames.length;
    document.body.dataset.liveFrames = liveGesture.drawn;
  } else if (answer.done) {
    liveGesture.replay.rest = answer.rest;
    liveGesture.replay.live = false;
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
  $("qr").innerHTML = qrSvg(location.href, { scale: 3 });
  showRecordings().catch(() => {});
}
