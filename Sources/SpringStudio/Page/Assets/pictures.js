// What each model draws of one engine frame (Reference §15, the engine in the page): the page's
// copy of the pictures `springtune replay --animate` and the studio's replays draw (each model's
// `picture` in Sources/SpringTune/Measure), made from the frame's numbers (EngineFrame.values)
// and the numbers the engine was started with. Shapes are [x, y, width, height, 0xRRGGBB] in pt,
// unrounded. No imports and nothing run at load (the prototype inlines this file); checked under
// node against the replay's own pictures of every bundled preset (Tests/page/wasm_replay.mjs).

/// A rectangle, its width and height at least 0.
function rect(x, y, w, h, colour) { return [x, y, Math.max(0, w), Math.max(0, h), colour]; }

/// A list row inset 12 pt from the screen's sides, 1 pt from its neighbours.
function row(y, height, width, colour) { return rect(12, y + 1, width - 24, height - 2, colour); }

/// Swift's Int(clamping:to:) of a Double: NaN or below `lo` is lo, above `hi` is hi, else truncated.
function clampInt(value, lo, hi) {
  if (Number.isNaN(value) || value <= lo) return lo;
  return value >= hi ? hi : Math.trunc(value);
}

/// Rows a list picture draws at most.
const MAX_LIST_ROWS = 200;

/// A row of `rowHeight` shown at height h as two halves folded by θ = acos(h / rowHeight), the
/// upper lit and the lower shaded in proportion to the angle, from y down.
function folded(y, h, rowHeight, width) {
  const ratio = rowHeight > 0 && !Number.isNaN(h) ? Math.min(1, Math.max(0, h / rowHeight)) : 0;
  const light = Math.acos(ratio) / (Math.PI / 2);
  const shade = (k) => {
    const f = Math.max(0.25, 1 - 0.6 * k);
    return (Math.trunc(231 * f) << 16) | (Math.trunc(76 * f) << 8) | Math.trunc(60 * f);
  };
  return [row(y, h / 2 + 1, width, shade(0.4 * light)), row(y + h / 2 - 1, h / 2 + 1, width, shade(light))];
}

/// Clear-style list rows from y covering `span` pt (at most MAX_LIST_ROWS), upwards with `up`.
function list(y, rowHeight, span, up, width) {
  const out = [];
  for (let i = 0; i <= clampInt(span / rowHeight, 0, MAX_LIST_ROWS - 1); i++) {
    const top = up ? y - (i + 1) * rowHeight : y + i * rowHeight;
    out.push(row(top, rowHeight, width, ((200 - Math.min(i, 8) * 12) << 16) | (60 << 8) | 50));
  }
  return out;
}

/// The shapes of one frame: `start` is what the engine was started with ({kind, scene, numbers}:
/// the scene's width and height are scene[0] and scene[1]; the model's numbers in the order of
/// Reference §15, its main spring's two first), `values` the frame's numbers.
export function picture(start, values) {
  const [w, h] = start.scene, n = start.numbers;
  switch (start.kind) {
    case 0: { // flow-layout: each row within 100 pt of the screen (and half a row), at its screen y
      const count = n[4], itemHeight = n[5], out = [];
      for (let i = 0; i < count; i++) {
        const y = values[i];
        if (y >= -100 - itemHeight / 2 && y <= h + 100 + itemHeight / 2) out.push(row(y - itemHeight / 2, itemHeight, w, i % 2 === 0 ? 0x4a90d9 : 0x7fb3e6));
      }
      return out;
    }
    case 1: // flick-dismiss: the photo at its centre (values x, y)
      return [rect(values[0] - n[7] / 2, values[1] - n[8] / 2, n[7], n[8], 0x3a3a3c)];
    case 2: // card-dismiss: the card's place at rest, then the card (values: left, right, top, bottom)
      return [rect(n[8], n[9], n[10], n[11], 0xd1d1d6), rect(values[0], values[2], values[1] - values[0], values[3] - values[2], 0x5e9ed6)];
    case 3: { // pull-to-create: the new row folding open at the top, the list below it
      const height = Math.max(0, values[0]);
      return folded(0, height, n[2], w).concat(list(height, n[2], h, false, w));
    }
    case 4: { // pinch-fold: the row between the fingers folding, the list above and below it
      const height = Math.max(0, values[0]), c = h / 2;
      return list(c - height / 2, n[2], c, true, w).concat(folded(c - height / 2, height, n[2], w), list(c + height / 2, n[2], c, false, w));
    }
    case 5: { // percent-transition: the page behind, the shadow and the sheet from offset s
      const s = values[0], out = [];
      for (let i = 0; i < Math.trunc(h / 64); i++) out.push(row(20 + i * 64, 60, w, 0xc7c7cc));
      return out.concat([rect(s - 6, 0, 6, h, 0x8e8e93), rect(s, 0, w, h, 0xfff3c4)]);
    }
    case 6: { // bottom-sheet: the page, the sheet from its top edge and its grabber
      const top = values[0], out = [];
      for (let i = 0; i < Math.min(MAX_LIST_ROWS, Math.trunc(h / 60) + 1); i++) out.push(row(i * 60, 60, w, 0xc7c7cc));
      return out.concat([rect(0, top, w, h - top, 0x3a3a3c), rect(w / 2 - 18, top + 6, 36, 5, 0x8e8e93)]);
    }
    default:
      return [];
  }
}

/// The indices of the shapes that make the model's moving layer in a picture of `count` shapes
/// (what the designer's image covers, art.js): every list row (flow-layout), the photo, the card,
/// the new row's two halves, the pinched row's two halves, the sheet (percent-transition,
/// bottom-sheet).
export function movingShapes(start, count) {
  const all = (from, n) => Array.from({ length: n }, (_, i) => from + i);
  switch (start.kind) {
    case 0: return all(0, count);
    case 1: return [0];
    case 2: return [1];
    case 3: return [0, 1];
    case 4: return all(clampInt(start.scene[1] / 2 / start.numbers[2], 0, MAX_LIST_ROWS - 1) + 1, 2);
    case 5: return [count - 1];
    case 6: return [count - 2];
    default: return [];
  }
}
