// The engines' WebAssembly module in the page (Reference §15): live touch steps the shipping
// engine here, under the finger, instead of asking the server (which still gets every sample,
// keeps the recording and measures it). A gesture is stepped as springtune replays a trace
// (Reference §6): frame k at t₀ + k/F (t₀ the first sample's time, F the scene's frame rate), every
// sample with t ≤ tₖ + 1e-9 s given to the engine before it; while a finger is down, frame k is
// made as soon as a sample later than tₖ has come, so the frames equal the replay of the recorded
// gesture. What is drawn while the finger is down is a preview: the next frame with every sample
// so far, made on a copy of the engine's state (the module's memory, 128 KiB, saved and put back),
// so that each sample shows in the first display frame after it. Imports pictures.js only (the
// prototype inlines both files); no DOM.
import { picture } from "./pictures.js";

/// Every function the module imports (module "math"), by the name it imports it under:
/// JavaScript's, which agree with the C library's to an ulp or two.
export const math = { exp: Math.exp, cos: Math.cos, sin: Math.sin, cosh: Math.cosh, sinh: Math.sinh,
  acos: Math.acos, log: Math.log, atan2: Math.atan2, atanh: Math.atanh };

/// The module's exports (memory, exchangeArea, startEngine, engineAdd, engineFrame, …) from its
/// bytes (an ArrayBuffer or a typed array).
export async function instantiate(bytes) {
  return (await WebAssembly.instantiate(bytes, { math })).instance.exports;
}

/// A sample counts for frame tₖ when t ≤ tₖ + SLACK (s), as the replay feeds it.
const SLACK = 1e-9;
/// The phases in the module's order (TouchPhase.allCases).
const PHASES = ["began", "moved", "ended", "cancelled"];
/// How long a gesture plays after its last lift at most (s) when it never comes to rest (a photo
/// thrown off the screen keeps falling).
export const MAX_TAIL = 10;

/// Starts module `e`'s engine with `start` ({kind, scene, numbers}); throws when it refuses them.
function startModule(e, start) {
  const all = [...start.scene, ...start.numbers];
  new Float64Array(e.memory.buffer, e.exchangeArea(all.length), all.length).set(all);
  if (e.startEngine(start.kind, start.numbers.length) !== 0) throw new Error("the engine module refused the set's numbers");
}

/// The engine's frame 0 before any touch, `{t: 0, values, shapes, fingers: []}`: what the phone
/// shows at rest (flow-layout's `auto` start at the top).
export function restFrame(e, start) {
  startModule(e, start);
  const values = Array.from(new Float64Array(e.memory.buffer, e.exchangeArea(0), e.engineFrame(0)));
  return { t: 0, values, shapes: picture(start, values), fingers: [] };
}

/// A gesture on module `e`, started with `start` as POST /api/replay gives it ({kind, scene,
/// numbers, allPointers}: scene is width, height, frame rate, tolerance, tail, estimator). Give
/// it every sample `{t (s), x, y (pt), phase, pointer}` with `add`, which makes the frames they
/// complete; after the last lift `finish` makes the rest, to rest. `frames` holds each frame
/// made: `{t` (s from the first sample), `values` (EngineFrame.values), `shapes` (pictures.js),
/// `fingers` ([x, y] of each finger down, pt)`}`. Throws when the module refuses the numbers.
export function startGesture(e, start) {
  const rate = start.scene[2], tolerance = start.scene[3], tail = start.scene[4];
  if (!(rate > 0 && rate <= 1000)) throw new Error("the scene's frame rate must be from above 0 to 1000 Hz");
  const input = [], down = new Set(), fingers = new Map(), frames = [];
  let begun = false, fed = 0, next = 0, t0 = null, first = null, settledStart = start, rest = null;
  const settles = start.kind === 0 && start.numbers[7] === 3;

  /// The engine, started when the first frame is due: flow-layout's `initialOffset: auto` (3)
  /// becomes top (0) when the finger's net drag so far is down or none, else bottom (1).
  function begin() {
    const numbers = [...start.numbers];
    if (settles) {
      const positions = input[input.length - 1].phase === "ended" || input[input.length - 1].phase === "cancelled" ? input.slice(0, -1) : input;
      numbers[7] = positions[positions.length - 1].y - positions[0].y >= 0 ? 0 : 1;
    }
    settledStart = { ...start, numbers };
    startModule(e, settledStart);
    begun = true;
  }

  /// Frame k: the samples due given, the engine's numbers read, the picture drawn.
  function step() {
    if (!begun) begin();
    const tk = t0 + next / rate;
    while (fed < input.length && input[fed].t <= tk + SLACK) {
      const s = input[fed++];
      if (e.engineAdd(s.t, s.x, s.y, PHASES.indexOf(s.phase), s.pointer) !== 0) throw new Error("the engine module refused a sample");
      if (s.phase === "ended" || s.phase === "cancelled") fingers.delete(s.pointer); else fingers.set(s.pointer, [s.x, s.y]);
    }
    const n = e.engineFrame(tk);
    const values = Array.from(new Float64Array(e.memory.buffer, e.exchangeArea(0), n));
    const drawn = [...fingers.keys()].sort((a, b) => a - b).map((p) => fingers.get(p));
    frames.push({ t: tk - t0, values, shapes: picture(settledStart, values), fingers: drawn });
    next++;
  }

  return {
    frames,
    /// True once every finger that touched has lifted.
    get complete() { return input.length > 0 && down.size === 0; },
    /// What the engine was started with (flow-layout's `auto` settled), once it has started.
    get start() { return settledStart; },
    /// The last sample's time (s from the first), once there is one.
    get lift() { return input.length ? input[input.length - 1].t - t0 : 0; },
    /// When the motion rests (s from the first sample), once `finish` has run.
    get rest() { return rest; },
    /// Adds one sample; returns how many frames it completed.
    add(sample) {
      if (sample.phase === "began") down.add(sample.pointer); else if (sample.phase !== "moved") down.delete(sample.pointer);
      if (first === null) first = sample.pointer;
      if (!start.allPointers && sample.pointer !== first) return 0;
      input.push(sample);
      if (t0 === null) t0 = sample.t;
      const before = frames.length, latest = input[input.length - 1];
      if (this.complete || latest.phase === "ended" || latest.phase === "cancelled") return 0;
      while (t0 + next / rate + SLACK < latest.t) step();
      return frames.length - before;
    },
    /// The frame the next one will be if no other sample comes before it (its time is the first
    /// frame time at or after the latest sample's), the engine left as it was; null before any
    /// sample, after the last lift, and before the first frame where the start is still to be
    /// settled (flow-layout's `auto` reads the samples up to that frame).
    preview() {
      if (t0 === null || this.complete || (!begun && settles)) return null;
      const memory = new Uint8Array(e.memory.buffer).slice(), kept = [begun, fed, next, settledStart, new Map(fingers)], count = frames.length;
      try {
        step();
        return frames[count];
      } finally {
        // Put back whatever the step changed, also when it threw.
        frames.length = count;
        new Uint8Array(e.memory.buffer).set(memory);
        [begun, fed, next, settledStart] = kept;
        fingers.clear();
        for (const [p, at] of kept[4]) fingers.set(p, at);
      }
    },
    /// After the last lift: the frames to rest. A frame is still when every number changed by
    /// at most the scene's tolerance per second of the frame before (tolerance / F per frame:
    /// positions within tolerance pt/s, rates likewise); the motion rests at the first of a run
    /// of still frames as long as the scene's tail (at least one frame), or MAX_TAIL s after the
    /// lift. Sets `rest`; returns how many frames it made.
    finish() {
      const before = frames.length, lift = this.lift, needed = Math.max(1, Math.ceil(tail * rate)), step_ = tolerance / rate;
      let still = 0;
      while (frames.length === 0 || frames[frames.length - 1].t <= lift + SLACK || (still < needed && frames[frames.length - 1].t - lift < MAX_TAIL)) {
        step();
        const [a, b] = frames.slice(-2);
        still = b && a.values.length === b.values.length && a.values.every((v, i) => Math.abs(v - b.values[i]) <= step_) ? still + 1 : 0;
      }
      rest = frames[frames.length - 1 - (still >= needed ? still : 0)].t;
      return frames.length - before;
    },
  };
}
