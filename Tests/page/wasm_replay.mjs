// The WebAssembly engine (`make wasm`, Reference §15) against the native one: drives the module's
// flick-dismiss engine through a trace as `springtune replay` drives the native engine (frame k
// at t₀ + k/F; before each frame every sample with t ≤ tₖ + 1e-9 s) and compares every frame
// of replay's timeline.csv with it, to 1e-9 pt (and pt/s). Prints one line (frames, decision,
// largest difference); exit 1 on any difference.
//   node Tests/page/wasm_replay.mjs PRESET.json TRACES.csv TRACE_ID TIMELINE.csv
import { readFileSync } from "node:fs";
import { instantiateEngine } from "./engine_module.mjs";

const [presetPath, tracesPath, traceId, timelinePath] = process.argv.slice(2);
const preset = JSON.parse(readFileSync(presetPath, "utf8"));
const e = await instantiateEngine();

// The preset's values in the order startFlickDismiss reads them (its parameters' order).
const order = ["snapFrequency", "snapDamping", "distanceThreshold", "flickVelocity", "maxFlickAngle",
  "velocityScale", "gravity", "cardWidth", "cardHeight"];
if (preset.model !== "flick-dismiss") { console.log(`FAIL ${preset.model}: only flick-dismiss is compiled in`); process.exit(1); }
const values = { ...preset.params, snapFrequency: preset.spring.frequency, snapDamping: preset.spring.damping };
const area = () => new Float64Array(e.memory.buffer, e.exchangeArea(), 64);
order.forEach((name, i) => { area()[i] = values[name]; });
const scene = { width: 390, height: 844, frameRate: 120, estimator: "lsq2", ...(preset.scene ?? {}) };
const estimators = ["lsq2", "impulse", "ios", "last"], phases = ["began", "moved", "ended", "cancelled"];
if (e.startFlickDismiss(scene.width, scene.height, estimators.indexOf(scene.estimator)) !== 0) { console.log("FAIL the module refused the preset"); process.exit(1); }

const rows = readFileSync(tracesPath, "utf8").trim().split("\n");
const header = rows[0].split(","), col = (n) => header.indexOf(n);
const samples = rows.slice(1).map((r) => r.split(",")).filter((r) => r[col("trace")] === traceId)
  .map((r) => ({ t: +r[col("t")], x: +r[col("x")], y: +r[col("y")], phase: phases.indexOf(r[col("phase")]), pointer: col("pointer") >= 0 ? +r[col("pointer")] : 0 }));
const timeline = readFileSync(timelinePath, "utf8").trim().split("\n").slice(1).map((r) => r.split(",").map(Number));

if (samples.length === 0) { console.log(`no trace ${traceId} in ${tracesPath}`); process.exit(1); }
const t0 = samples[0].t;
let next = 0, worst = 0, frames = 0;
for (let i = 0; i < timeline.length; i += 2) {
  const k = Math.round(timeline[i][0] * scene.frameRate);
  const t = t0 + k / scene.frameRate;
  while (next < samples.length && samples[next].t <= t + 1e-9) { const s = samples[next++]; e.engineAdd(s.t, s.x, s.y, s.phase, s.pointer); }
  const n = e.engineFrame(t), f = area().slice(0, n); // centre x, y, velocity x, y
  const want = [timeline[i + 1][2], timeline[i][2], timeline[i + 1][4], timeline[i][4]];
  for (let j = 0; j < 4; j++) worst = Math.max(worst, Math.abs(f[j] - want[j]) / Math.max(1, Math.abs(want[j])));
  frames++;
}
const decision = ["dismiss", "keep", "create", "cancel"][e.engineDecision()] ?? "none";
const ok = worst <= 1e-9 && frames > 0;
console.log(`${traceId}: ${frames} frames, ${decision}, largest difference ${worst.toExponential(2)} (relative, ≥ 1 pt)`);
process.exit(ok ? 0 : 1);
