// The prototype (`springtune studio --session S --prototype OUT.html`, Reference §10.16): feel
// mode with no server. The file holds the engines' WebAssembly module, each candidate's start
// numbers and the session's image; each touch steps the module here (engine.js) exactly as the
// studio's page does, drawn by the studio's stage.js at the display's rate and pixel ratio; a
// switch picks the candidate. Inlined into the file after the modules it imports
// (StudioPrototype.swift); it runs at load.
import { instantiate, restFrame, startGesture } from "./engine.js";
import { movingShapes } from "./pictures.js";
import { drawStage, seeing } from "./stage.js";
import { fingersDown, gestureReplay, phonePoint, pointerSamples, showGesture } from "./touch.js";

/// The file's bytes of a base64 text.
function base64Bytes(base64) {
  const text = atob(base64), out = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) out[i] = text.charCodeAt(i);
  return out;
}

/// The prototype's state (read by Tests/studio/feel_page.py): the data, the module, the
/// selected candidate, the gesture and its replay, its samples, the gesture's time shown while a
/// finger is down (s), and the clock of its tail: the lift's time (s) and the display time then
/// (ms).
const prototypePage = { data: JSON.parse(document.getElementById("data").textContent), module: null, selected: 0,
  run: null, replay: null, fingers: fingersDown(), samples: [], shown: 0, tail: null };

/// The one phone: the canvas and what stage.js draws on it.
const prototypePhone = { canvas: document.querySelector("canvas.stage"), replay: null, engine: null, magnifier: null };

/// Candidate `i` at rest on the phone, pressed on the switch.
function chooseCandidate(i) {
  const p = prototypePage, candidate = p.data.candidates[i];
  p.selected = i;
  p.run = null;
  p.fingers = fingersDown(); // a gesture in progress ends here: its fingers' next moves are not taken
  p.tail = null;
  prototypePhone.engine = candidate.engine;
  prototypePhone.replay = { screen: candidate.engine.scene.slice(0, 2), frames: [restFrame(p.module, candidate.engine)], rest: 0, live: false };
  for (const [k, b] of [...document.getElementById("feel-switch").children].entries()) b.setAttribute("aria-pressed", String(k === i));
}

/// One pointer event's samples into the gesture (a new one at the first finger down).
function prototypeTouch(e, phase) {
  const p = prototypePage;
  if (phase !== "began" && !p.fingers.ids.has(e.pointerId)) return;
  e.preventDefault();
  if (phase === "began" && p.fingers.ids.size === 0) {
    p.fingers = fingersDown();
    p.run = startGesture(p.module, p.data.candidates[p.selected].engine);
    p.replay = gestureReplay(prototypePhone.replay.screen);
    p.samples = [];
    p.shown = 0;
    p.tail = null;
  }
  if (phase === "began") prototypePhone.canvas.setPointerCapture(e.pointerId);
  for (const s of pointerSamples(p.fingers, e, phase, (each) => phonePoint(prototypePhone.canvas, p.replay.screen, each))) {
    p.run.add(s);
    p.samples.push(s);
  }
  const wasLive = p.replay.live, last = showGesture(p.run, p.replay);
  if (!last) return;
  prototypePhone.replay = p.replay;
  if (p.replay.live) p.shown = last.t;
  else if (wasLive) p.tail = { t: Math.min(p.run.lift, p.replay.rest), at: performance.now() };
}

/// Draws the phone every display frame: the newest frame while a finger is down, then the tail
/// on the display's clock from where the lift left it.
function drawPrototype(now) {
  const p = prototypePage, replay = prototypePhone.replay;
  if (replay) drawStage([prototypePhone], p.tail ? Math.min(replay.rest, p.tail.t + (now - p.tail.at) / 1000) : p.run ? p.shown ?? 0 : 0);
  requestAnimationFrame(drawPrototype);
}

async function startPrototype() {
  const p = prototypePage;
  try {
    seeing.feel = true;
    p.module = await instantiate(base64Bytes(p.data.module));
    if (p.data.image) {
      const image = await createImageBitmap(new Blob([base64Bytes(p.data.image.data)], { type: p.data.image.type }));
      seeing.art = { image, scale: p.data.image.scale, layer: movingShapes };
    }
    document.getElementById("feel-switch").replaceChildren(...p.data.candidates.map((c, i) => {
      const b = document.createElement("button");
      b.type = "button";
      b.textContent = c.name;
      b.addEventListener("click", () => chooseCandidate(i));
      return b;
    }));
    chooseCandidate(0);
    for (const [type, phase] of [["pointerdown", "began"], ["pointermove", "moved"], ["pointerup", "ended"], ["pointercancel", "cancelled"]])
      prototypePhone.canvas.addEventListener(type, (e) => prototypeTouch(e, phase));
    document.body.dataset.state = "ready";
    requestAnimationFrame(drawPrototype);
  } catch (e) {
    const error = document.getElementById("error");
    error.textContent = "the prototype cannot run here: " + (e.message || e);
    error.hidden = false;
  }
}

window.prototypePage = prototypePage;
startPrototype();
