// stage.js: the frames between the model's (interpolatedFrame), and the magnified region.
import { test } from "node:test";
import assert from "node:assert/strict";
import { pageModule } from "./page.mjs";

const st = await pageModule("stage.js");

// Three frames at 0, 1/120 and 2/120 s: a card [x, y, w, h, colour] that moves right and down,
// a second shape that stays, and one finger.
const frames = [
  { t: 0, shapes: [[0, 100, 390, 80, 0xffffff], [10, 10, 20, 20, 0x333333]], fingers: [[50, 50]] },
  { t: 1 / 120, shapes: [[12, 104, 390, 80, 0xffffff], [10, 10, 20, 20, 0x333333]], fingers: [[60, 58]] },
  { t: 2 / 120, shapes: [[18, 110, 390, 80, 0xffffff], [10, 10, 20, 20, 0x333333]], fingers: [[64, 70]] },
];

test("frameIndexAt: the last frame at or before t, 0 before the first", () => {
  assert.equal(st.frameIndexAt(frames, -1), 0);
  assert.equal(st.frameIndexAt(frames, 0), 0);
  assert.equal(st.frameIndexAt(frames, 0.5 / 120), 0);
  assert.equal(st.frameIndexAt(frames, 1 / 120), 1);
  assert.equal(st.frameIndexAt(frames, 1.99 / 120), 1);
  assert.equal(st.frameIndexAt(frames, 2 / 120), 2);
  assert.equal(st.frameIndexAt(frames, 10), 2);
  assert.equal(st.frameIndexAt([frames[0]], 5), 0);
});

test("interpolatedFrame: halfway between two frames every rectangle is the mean, the colour frame k's", () => {
  const t = 0.5 / 120, f = st.interpolatedFrame(frames, t);
  assert.equal(f.t, t);
  assert.deepEqual(f.shapes, [[6, 102, 390, 80, 0xffffff], [10, 10, 20, 20, 0x333333]]);
  assert.deepEqual(f.fingers, [[55, 54]]);
});

test("interpolatedFrame: linear in the fraction (t − t_k) / (t_k+1 − t_k)", () => {
  const f = st.interpolatedFrame(frames, 1 / 120 + 0.25 / 120);
  const near = (a, b) => Math.abs(a - b) < 1e-9;
  assert.ok(near(f.shapes[0][0], 12 + 0.25 * 6) && near(f.shapes[0][1], 104 + 0.25 * 6), JSON.stringify(f.shapes[0]));
  assert.ok(near(f.fingers[0][0], 61) && near(f.fingers[0][1], 61), JSON.stringify(f.fingers));
});

test("interpolatedFrame: on a frame, before the first and after the last, that frame itself", () => {
  for (const [t, k] of [[0, 0], [1 / 120, 1], [-3, 0], [2 / 120, 2], [99, 2]]) {
    const f = st.interpolatedFrame(frames, t);
    assert.equal(f.shapes, frames[k].shapes, `t ${t}`);
    assert.equal(f.fingers, frames[k].fingers, `t ${t}`);
    assert.equal(f.t, frames[k].t);
  }
});

test("interpolatedFrame: when the number of shapes or fingers changes, frame k's are kept", () => {
  const changing = [
    { t: 0, shapes: [[0, 0, 10, 10, 1]], fingers: [[1, 1]] },
    { t: 1, shapes: [[10, 0, 10, 10, 1], [0, 50, 10, 10, 2]], fingers: [] },
  ];
  const f = st.interpolatedFrame(changing, 0.5);
  assert.equal(f.shapes, changing[0].shapes);
  assert.equal(f.fingers, changing[0].fingers);
});

test("interpolatedFrame is pure: the model's frames are not changed", () => {
  const before = JSON.stringify(frames);
  st.interpolatedFrame(frames, 0.3 / 120);
  st.interpolatedFrame(frames, 1.7 / 120);
  assert.equal(JSON.stringify(frames), before);
});

test("edgeTravel: each edge's travel summed over the frames, only while a shape keeps its colour", () => {
  const travel = st.edgeTravel(frames);
  assert.equal(travel.get("0 0"), 18); // left edge of the card: 12 + 6
  assert.equal(travel.get("0 1"), 18); // right edge
  assert.equal(travel.get("0 2"), 10); // top: 4 + 6
  assert.equal(travel.get("1 0"), undefined); // the shape that stays
  const recoloured = [{ t: 0, shapes: [[0, 0, 5, 5, 1]] }, { t: 1, shapes: [[30, 0, 5, 5, 2]] }];
  assert.equal(st.edgeTravel(recoloured).size, 0);
});

test("motionRegion: the magnifier's size, centred where the farthest-travelling edge rests, inside the screen", () => {
  const replay = { screen: [390, 844], frames };
  const r = st.motionRegion([replay]);
  const [rw, rh] = [st.MAGNIFIER_SIZE[0] / st.MAGNIFIER_ZOOM, st.MAGNIFIER_SIZE[1] / st.MAGNIFIER_ZOOM];
  assert.deepEqual([r.w, r.h], [rw, rh]);
  // The card's left edge (the first of the farthest, 18 pt) rests at x 18, its on-screen part y 110 to 190.
  assert.deepEqual([r.x, r.y], [Math.max(0, 18 - rw / 2), 150 - rh / 2]);
  assert.equal(st.motionRegion([]), null);
  const still = st.motionRegion([{ screen: [390, 844], frames: [frames[0], frames[0]] }]);
  assert.deepEqual([still.x, still.y], [195 - rw / 2, 422 - rh / 2]);
});
