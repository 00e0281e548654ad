// qr.js: the structure of the codes (Tests/studio/qr_check.py decodes them with zbarimg).
import { test } from "node:test";
import assert from "node:assert/strict";
import { pageModule } from "./page.mjs";

const qr = await pageModule("qr.js");
const url = "http://192.168.1.20:8137/?token=3f9c2a0b5e7d4c1f8a6b0e2d4c6a8f10";

/// The 15 format bits read from the copy around the top left finder (bit 14 at (8, 0)).
function formatBits(dark) {
  const at = [];
  for (let i = 0; i <= 5; i++) at[i] = dark[i][8];
  at[6] = dark[7][8]; at[7] = dark[8][8]; at[8] = dark[8][7];
  for (let i = 9; i <= 14; i++) at[i] = dark[8][14 - i];
  return at.reduce((v, b, i) => v | ((b ? 1 : 0) << i), 0);
}
/// The second copy (bits 0–7 on row 8 from the right, 8–14 down column 8).
function formatCopy(dark) {
  const size = dark.length, at = [];
  for (let i = 0; i <= 7; i++) at[i] = dark[8][size - 1 - i];
  for (let i = 8; i <= 14; i++) at[i] = dark[size - 15 + i][8];
  return at.reduce((v, b, i) => v | ((b ? 1 : 0) << i), 0);
}

test("the smallest version that holds the text: 17 + 4 · version modules", () => {
  for (const [text, version] of [["A", 1], ["x".repeat(14), 1], ["x".repeat(15), 2], [url, 5], ["x".repeat(213), 10]]) {
    const m = qr.qrMatrix(text);
    assert.equal(m.size, 17 + 4 * version, text.slice(0, 20));
    assert.equal(m.dark.length, m.size);
    assert.ok(m.dark.every((row) => row.length === m.size));
  }
});

test("more than 213 bytes throws, naming version 10", () => {
  assert.throws(() => qr.qrMatrix("x".repeat(214)), /version 10/);
  assert.throws(() => qr.qrMatrix("日".repeat(72)), /216 bytes/); // 3 bytes of UTF-8 each
});

test("three finder patterns, the timing rows and the dark module", () => {
  const { size, dark } = qr.qrMatrix(url);
  for (const [r0, c0] of [[0, 0], [0, size - 7], [size - 7, 0]]) {
    for (let r = 0; r < 7; r++) for (let c = 0; c < 7; c++) {
      const ring = Math.max(Math.abs(r - 3), Math.abs(c - 3));
      assert.equal(dark[r0 + r][c0 + c], ring !== 2, `finder at ${r0}, ${c0}: (${r}, ${c})`);
    }
  }
  for (let i = 8; i < size - 8; i++) {
    assert.equal(dark[6][i], i % 2 === 0);
    assert.equal(dark[i][6], i % 2 === 0);
  }
  assert.equal(dark[size - 8][8], true);
});

test("the format information: level M and the mask, BCH-checked, the same in both copies", () => {
  for (let mask = 0; mask < 8; mask++) {
    const { dark } = qr.qrMatrix(url, { mask });
    const bits = formatBits(dark) ^ 0x5412;
    assert.equal(formatCopy(dark) ^ 0x5412, bits);
    assert.equal(bits >> 10, (0b00 << 3) | mask, `mask ${mask}`);
    let r = bits; // the 15-bit word is a multiple of the generator 0x537
    for (let bit = 14; bit >= 10; bit--) if ((r >> bit) & 1) r ^= 0x537 << (bit - 10);
    assert.equal(r, 0);
  }
});

test("each forced mask gives another symbol; the unforced one is one of them", () => {
  const masked = [...Array(8).keys()].map((mask) => JSON.stringify(qr.qrMatrix(url, { mask }).dark));
  assert.equal(new Set(masked).size, 8);
  assert.ok(masked.includes(JSON.stringify(qr.qrMatrix(url).dark)));
});

test("qrSvg: an <svg> of the symbol with its quiet zone, `scale` px per module", () => {
  const svg = qr.qrSvg("A", { scale: 3 });
  const side = 21 + 2 * 4;
  assert.ok(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg" width="' + side * 3 + '" height="' + side * 3 + '"'), svg.slice(0, 120));
  assert.ok(svg.includes('viewBox="0 0 ' + side + " " + side + '"'));
  assert.match(svg, /<path fill="#000" d="(M\d+ \d+h\d+v1h-\d+z)+"\/><\/svg>$/);
  // The dark modules' area equals the path's rectangles.
  const area = [...svg.matchAll(/h(\d+)v1/g)].reduce((a, m) => a + Number(m[1]), 0);
  assert.equal(area, qr.qrMatrix("A").dark.flat().filter(Boolean).length);
});
