// Touch on a drawn phone, shared by live touch in the studio (live.js) and the prototype
// (prototype.js): a pointer event's place on the phone (pt), the fingers down and their numbers,
// each event's samples in time order, and a gesture of the page's engine (engine.js) turned into
// the replay the stage draws (stage.js).
import { phonePad } from "./stage.js";

/// A pointer event's place (pt) on the phone of a `screen` (w × h pt) drawn on `canvas`,
/// inverting stage.js's fit.
export function phonePoint(canvas, [w, h], e) {
  const rect = canvas.getBoundingClientRect(), pad = phonePad();
  const scale = Math.min((rect.width - 2 * pad) / w, (rect.height - 2 * pad) / h);
  const x0 = (rect.width - w * scale) / 2, y0 = (rect.height - h * scale) / 2;
  return { x: (e.clientX - rect.left - x0) / scale, y: (e.clientY - rect.top - y0) / scale };
}

/// The most fingers a gesture takes (the live socket's limit per sample).
const MAX_FINGERS = 10;

/// The fingers of one gesture: pointer id → finger number (0, 1, … in the order they touched,
/// never reused within the gesture: a recording's pointer begins once), how many were numbered,
/// and the event time (ms) of the last sample taken.
export function fingersDown() { return { ids: new Map(), numbered: 0, lastAt: -Infinity }; }

/// The samples of one pointer event of `phase` (began, moved, ended, cancelled): each of the
/// moves a browser coalesced into it, as `{t (s), x, y (pt), phase, pointer, at (ms)}`, placed
/// by `place(event)`, in time order: a move older than the last sample taken is dropped (two
/// fingers' moves come pointer by pointer), a touch or a lift older than it takes its time. A
/// finger is numbered when it begins (none past MAX_FINGERS: its events are not taken) and
/// forgotten when it lifts.
export function pointerSamples(fingers, e, phase, place) {
  if (phase === "began") {
    if (fingers.numbered >= MAX_FINGERS) return [];
    fingers.ids.set(e.pointerId, fingers.numbered++);
  }
  if (!fingers.ids.has(e.pointerId)) return [];
  const pointer = fingers.ids.get(e.pointerId), out = [];
  const coalesced = phase === "moved" && e.getCoalescedEvents ? e.getCoalescedEvents() : [];
  for (const each of coalesced.length ? coalesced : [e]) {
    if (phase === "moved" && each.timeStamp < fingers.lastAt) continue;
    const at = Math.max(each.timeStamp, fingers.lastAt);
    fingers.lastAt = at;
    const { x, y } = place(each);
    out.push({ t: at / 1000, x, y, phase, pointer, at });
  }
  if (phase === "ended" || phase === "cancelled") fingers.ids.delete(e.pointerId);
  return out;
}

/// The replay a gesture draws on a `screen`: its frames (the stage's), when it rests, whether a
/// finger is down, how many of the gesture's frames it holds and whether a preview ends it.
export function gestureReplay(screen) { return { screen, frames: [], rest: 0, live: true, committed: 0, preview: false }; }

/// The gesture's frames into its replay: the frames made, then the preview of the next one while
/// a finger is down (what the next display frame shows); after the last lift every frame to
/// rest (the replay's `rest` the gesture's). Returns the last frame, or null before any.
export function showGesture(run, replay) {
  if (run.complete) run.finish();
  if (replay.preview) replay.frames.pop();
  replay.frames.push(...run.frames.slice(replay.committed));
  replay.committed = run.frames.length;
  const preview = run.preview();
  replay.preview = preview !== null;
  if (preview) replay.frames.push(preview);
  replay.live = !run.complete;
  const last = replay.frames[replay.frames.length - 1] || null;
  if (last) replay.rest = run.rest ?? last.t;
  return last;
}
