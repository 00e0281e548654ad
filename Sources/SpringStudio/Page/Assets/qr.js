// A QR code encoder (ISO/IEC 18004 Model 2) for the studio page, written for this page alone:
// byte mode (the text's UTF-8 bytes), error-correction level M, versions 1 to 10 (21 × 21 to
// 57 × 57 modules), enough for a URL with a token. Lengths are in modules (the symbol's squares)
// unless they say px. Rows and columns count from the symbol's top left corner, 0-based.
// qrMatrix gives the modules; qrSvg draws them for element.innerHTML. No imports, no DOM:
// Tests/studio/qr_check.py imports this module under node and decodes its codes with zbarimg.

/// Level M's error-correction blocks for versions 1 to 10 (ISO/IEC 18004 table 9), index
/// version − 1: [EC codewords per block, then pairs of (number of blocks, data codewords each)].
const QR_BLOCKS_M = [
  [10, 1, 16], [16, 1, 28], [26, 1, 44], [18, 2, 32], [24, 2, 43],
  [16, 4, 27], [18, 4, 31], [22, 2, 38, 2, 39], [22, 3, 36, 2, 37], [26, 4, 43, 1, 44],
];
/// The centres (row and column alike) of the alignment patterns for versions 1 to 10 (annex E);
/// every pairing of them is a centre except the three that fall on the finder patterns.
const QR_ALIGN = [[], [6, 18], [6, 22], [6, 26], [6, 30], [6, 34], [6, 22, 38], [6, 24, 42],
  [6, 26, 46], [6, 28, 50]];
/// The two bits that name level M in the format information (L 01, M 00, Q 11, H 10).
const QR_LEVEL_M = 0b00;

// ---- arithmetic in GF(256), the field Reed–Solomon works in: bytes, with α = 2 and
// multiplication modulo x⁸ + x⁴ + x³ + x² + 1 (0x11d).
const QR_EXP = new Array(512), QR_LOG = new Array(256);
{
  let v = 1;
  for (let i = 0; i < 255; i++) {
    QR_EXP[i] = QR_EXP[i + 255] = v;
    QR_LOG[v] = i;
    v <<= 1;
    if (v & 0x100) v ^= 0x11d;
  }
}
/// The product of two field elements (bytes).
function gfMul(a, b) {
  return a === 0 || b === 0 ? 0 : QR_EXP[QR_LOG[a] + QR_LOG[b]];
}

/// The generator polynomial of degree `n`, (x − α⁰)(x − α¹)…(x − αⁿ⁻¹), as its n + 1
/// coefficients, highest power first (the first is 1).
function rsGenerator(n) {
  let g = [1];
  for (let i = 0; i < n; i++) {
    const next = new Array(g.length + 1).fill(0);
    g.forEach((c, j) => { next[j] ^= c; next[j + 1] ^= gfMul(c, QR_EXP[i]); });
    g = next;
  }
  return g;
}

/// The `n` error-correction codewords of one block of `data` (bytes): the remainder of
/// data(x)·xⁿ divided by the generator of degree n, highest power first.
function rsRemainder(data, n) {
  const g = rsGenerator(n), r = new Array(n).fill(0);
  for (const byte of data) {
    const f = byte ^ r.shift();
    r.push(0);
    for (let j = 0; j < n; j++) r[j] ^= gfMul(g[j + 1], f);
  }
  return r;
}

// ---- the bit stream
/// The message's codewords for `bytes` at `version`, or null when they do not fit: mode 0100
/// (byte), the count (8 bits, 16 from version 10), the bytes, a terminator of up to four 0 bits,
/// 0 bits to a byte's end, then the pad bytes 0xEC and 0x11 by turns (§7.4).
function qrDataCodewords(bytes, version) {
  const spec = QR_BLOCKS_M[version - 1];
  let capacity = 0;
  for (let i = 1; i < spec.length; i += 2) capacity += spec[i] * spec[i + 1];
  if (bytes.length >= (version < 10 ? 0x100 : 0x10000)) return null;
  const bits = [], put = (value, n) => { for (let i = n - 1; i >= 0; i--) bits.push((value >>> i) & 1); };
  put(0b0100, 4);
  put(bytes.length, version < 10 ? 8 : 16);
  bytes.forEach((b) => put(b, 8));
  if (bits.length > capacity * 8) return null;
  put(0, Math.min(4, capacity * 8 - bits.length));
  put(0, (8 - bits.length % 8) % 8);
  const words = [];
  for (let i = 0; i < bits.length; i += 8) words.push(bits.slice(i, i + 8).reduce((a, b) => a * 2 + b, 0));
  for (let pad = 0xec; words.length < capacity; pad ^= 0xec ^ 0x11) words.push(pad);
  return words;
}

/// The codewords in the order they are placed (§7.6): the data split into the version's blocks
/// (shorter blocks first), each block's EC codewords computed, then the data interleaved (the
/// first codeword of every block, then the second, …) followed by the EC interleaved likewise.
function qrInterleave(words, version) {
  const spec = QR_BLOCKS_M[version - 1], ecLength = spec[0], blocks = [];
  let at = 0;
  for (let i = 1; i < spec.length; i += 2) {
    for (let k = 0; k < spec[i]; k++) {
      const data = words.slice(at, at + spec[i + 1]);
      at += spec[i + 1];
      blocks.push({ data, ec: rsRemainder(data, ecLength) });
    }
  }
  const out = [], longest = Math.max(...blocks.map((b) => b.data.length));
  for (let i = 0; i < longest; i++) for (const b of blocks) if (i < b.data.length) out.push(b.data[i]);
  for (let i = 0; i < ecLength; i++) for (const b of blocks) out.push(b.ec[i]);
  return out;
}

// ---- the symbol
/// A BCH code's check bits: `value` shifted left by the generator's degree, reduced modulo
/// `generator` (0x537 for the format information, 0x1f25 for the version information).
function bchRemainder(value, generator) {
  const degree = Math.floor(Math.log2(generator));
  let r = value << degree;
  for (let bit = Math.floor(Math.log2(r || 1)); bit >= degree; bit--) if ((r >>> bit) & 1) r ^= generator << (bit - degree);
  return r;
}

/// An empty symbol of `version`: `dark` and `reserved` (function patterns and information
/// areas, where no data goes), both size × size, [row][column].
function qrGrid(version) {
  const size = 17 + 4 * version;
  const blank = () => Array.from({ length: size }, () => new Array(size).fill(false));
  return { version, size, dark: blank(), reserved: blank() };
}

/// Sets the module at (row, column) to `on` and reserves it from the data.
function qrSetFunction(grid, row, col, on) {
  grid.dark[row][col] = on;
  grid.reserved[row][col] = true;
}

/// The function patterns (ISO/IEC 18004 §6.3): three finders (7 × 7 rings around a 3 × 3 centre) with their
/// light separators, the timing rows (row and column 6, dark on even indices), the 5 × 5
/// alignment patterns, the dark module at (size − 8, 8), and the areas format and version
/// information will occupy (reserved here, written by qrFormat and qrVersionInfo).
function qrFunctionPatterns(grid) {
  const { size } = grid;
  for (const [r0, c0] of [[0, 0], [0, size - 7], [size - 7, 0]]) {
    for (let r = -1; r <= 7; r++) for (let c = -1; c <= 7; c++) {
      const row = r0 + r, col = c0 + c;
      if (row < 0 || col < 0 || row >= size || col >= size) continue;
      const ring = Math.max(Math.abs(r - 3), Math.abs(c - 3));
      qrSetFunction(grid, row, col, ring !== 2 && ring !== 4);
    }
  }
  for (let i = 8; i < size - 8; i++) {
    qrSetFunction(grid, 6, i, i % 2 === 0);
    qrSetFunction(grid, i, 6, i % 2 === 0);
  }
  const centres = QR_ALIGN[grid.version - 1], last = centres.length - 1;
  centres.forEach((r0, i) => centres.forEach((c0, j) => {
    if ((i === 0 && j === 0) || (i === 0 && j === last) || (i === last && j === 0)) return;
    for (let r = -2; r <= 2; r++) for (let c = -2; c <= 2; c++) {
      qrSetFunction(grid, r0 + r, c0 + c, Math.max(Math.abs(r), Math.abs(c)) !== 1);
    }
  }));
  qrFormat(grid, 0);
  qrVersionInfo(grid);
}

/// The 15 format bits (§7.9): level M's two bits and the 3-bit mask number, their 10 BCH check
/// bits, XOR 0x5412, written twice. Bit 14 (the most significant) is at (8, 0) and bits 14 to 9
/// run right along row 8, bits 8 to 6 turn the corner at (8, 7), (8, 8), (7, 8) and bits 5 to 0
/// go up column 8; the copy puts bits 0 to 7 on row 8 from the right edge leftwards and bits 8
/// to 14 on column 8 from row size − 7 down.
function qrFormat(grid, mask) {
  const { size } = grid, data = (QR_LEVEL_M << 3) | mask;
  const bits = ((data << 10) | bchRemainder(data, 0x537)) ^ 0x5412;
  const bit = (i) => ((bits >>> i) & 1) === 1;
  for (let i = 0; i <= 5; i++) qrSetFunction(grid, i, 8, bit(i));
  qrSetFunction(grid, 7, 8, bit(6));
  qrSetFunction(grid, 8, 8, bit(7));
  qrSetFunction(grid, 8, 7, bit(8));
  for (let i = 9; i <= 14; i++) qrSetFunction(grid, 8, 14 - i, bit(i));
  for (let i = 0; i <= 7; i++) qrSetFunction(grid, 8, size - 1 - i, bit(i));
  for (let i = 8; i <= 14; i++) qrSetFunction(grid, size - 15 + i, 8, bit(i));
  qrSetFunction(grid, size - 8, 8, true);
}

/// From version 7, the 18 version bits (§7.10): the 6-bit version and its 12 BCH check bits, in
/// two 6 × 3 blocks: bit i at row ⌊i / 3⌋, column size − 11 + i mod 3 above the top right
/// finder, and transposed beside the bottom left finder.
function qrVersionInfo(grid) {
  if (grid.version < 7) return;
  const bits = (grid.version << 12) | bchRemainder(grid.version, 0x1f25);
  for (let i = 0; i < 18; i++) {
    const on = ((bits >>> i) & 1) === 1, a = grid.size - 11 + (i % 3), b = Math.floor(i / 3);
    qrSetFunction(grid, b, a, on);
    qrSetFunction(grid, a, b, on);
  }
}

/// Places the codewords' bits, most significant first (ISO/IEC 18004 §7.7.3): in two-module-wide columns
/// from the right edge leftwards (column 6, the timing column, skipped), up the first pair,
/// down the next, and so on, right module before left, passing over reserved modules. Modules
/// left over (the remainder bits) stay light.
function qrPlace(grid, codewords) {
  const { size } = grid;
  let n = 0;
  for (let right = size - 1, upward = true; right >= 1; right -= 2, upward = !upward) {
    if (right === 6) right = 5;
    for (let k = 0; k < size; k++) {
      const row = upward ? size - 1 - k : k;
      for (const col of [right, right - 1]) {
        if (grid.reserved[row][col]) continue;
        const byte = codewords[n >> 3];
        grid.dark[row][col] = byte !== undefined && ((byte >>> (7 - (n & 7))) & 1) === 1;
        n++;
      }
    }
  }
}

/// The eight data masks (ISO/IEC 18004 §7.8.2), for the module at (row i, column j): a module is inverted
/// where its mask's condition holds.
const QR_MASKS = [
  (i, j) => (i + j) % 2 === 0, (i) => i % 2 === 0, (i, j) => j % 3 === 0,
  (i, j) => (i + j) % 3 === 0, (i, j) => (Math.floor(i / 2) + Math.floor(j / 3)) % 2 === 0,
  (i, j) => (i * j) % 2 + (i * j) % 3 === 0, (i, j) => ((i * j) % 2 + (i * j) % 3) % 2 === 0,
  (i, j) => ((i + j) % 2 + (i * j) % 3) % 2 === 0,
];

/// Inverts the data modules (not the reserved ones) where mask `m`'s condition holds; applying
/// it twice undoes it.
function qrApplyMask(grid, m) {
  for (let i = 0; i < grid.size; i++) for (let j = 0; j < grid.size; j++) {
    if (!grid.reserved[i][j] && QR_MASKS[m](i, j)) grid.dark[i][j] = !grid.dark[i][j];
  }
}

/// A masked symbol's penalty (ISO/IEC 18004 §7.8.3; lower is better): N1 = 3 + (k − 5) for each run of k ≥ 5
/// same-colour modules in a row or column; N2 = 3 for each 2 × 2 square of one colour (counted
/// overlapping); N3 = 40 for each 1:1:3:1:1 finder-like run with four light modules on either
/// side (dark·light·dark×3·light·dark then light×4, or the reverse) in a row or column; N4 = 10
/// for each whole 5 % the dark share differs from 50 %.
function qrPenalty(dark) {
  const size = dark.length, lines = [];
  for (let i = 0; i < size; i++) lines.push(dark[i], dark.map((row) => row[i]));
  let score = 0;
  const finderLike = [[1, 0, 1, 1, 1, 0, 1, 0, 0, 0, 0], [0, 0, 0, 0, 1, 0, 1, 1, 1, 0, 1]];
  for (const line of lines) {
    for (let start = 0, k = 1; k <= size; k++) {
      if (k < size && line[k] === line[start]) continue;
      if (k - start >= 5) score += 3 + (k - start - 5);
      start = k;
    }
    for (let k = 0; k + 11 <= size; k++) {
      if (finderLike.some((p) => p.every((v, d) => line[k + d] === (v === 1)))) score += 40;
    }
  }
  let count = 0;
  for (let i = 0; i < size; i++) for (let j = 0; j < size; j++) {
    if (dark[i][j]) count++;
    if (i + 1 < size && j + 1 < size && dark[i][j] === dark[i][j + 1] &&
      dark[i][j] === dark[i + 1][j] && dark[i][j] === dark[i + 1][j + 1]) score += 3;
  }
  return score + 10 * Math.floor(Math.abs(count * 100 / (size * size) - 50) / 5);
}

/// The QR code of `text` (its UTF-8 bytes, byte mode, level M) in the smallest version from 1 to
/// 10 that holds it (at most 213 bytes), with the mask of lowest penalty among the eight.
/// Returns {size, dark}: size in modules (21 to 57), dark[row][column] true for a dark module.
/// Throws an Error when the text needs more than version 10. `mask` (0 to 7) forces that mask
/// instead (the tests decode every mask's pattern and format bits).
export function qrMatrix(text, { mask = null } = {}) {
  const bytes = Array.from(new TextEncoder().encode(String(text)));
  for (let version = 1; version <= 10; version++) {
    const words = qrDataCodewords(bytes, version);
    if (!words) continue;
    const grid = qrGrid(version);
    qrFunctionPatterns(grid);
    qrPlace(grid, qrInterleave(words, version));
    let best = mask === null ? 0 : mask, bestScore = Infinity;
    for (let m = 0; m < 8 && mask === null; m++) {
      qrApplyMask(grid, m);
      qrFormat(grid, m);
      const score = qrPenalty(grid.dark);
      if (score < bestScore) { best = m; bestScore = score; }
      qrApplyMask(grid, m);
    }
    qrApplyMask(grid, best);
    qrFormat(grid, best);
    return { size: grid.size, dark: grid.dark };
  }
  throw new Error("qrMatrix: " + bytes.length + " bytes of UTF-8 is too long for a QR code of " +
    "version 10 at level M (at most 213 bytes)");
}

/// The QR code of `text` as an SVG string for element.innerHTML: a white background and one
/// black <path> of the dark modules (each row's runs as rectangles), drawn in module units in
/// the viewBox with a light quiet zone of `quiet` modules (the standard asks for 4) on every
/// side, `scale` CSS px per module.
export function qrSvg(text, { scale = 4, quiet = 4 } = {}) {
  const { size, dark } = qrMatrix(text), side = size + 2 * quiet;
  let d = "";
  dark.forEach((row, y) => {
    for (let x = 0; x < size; x++) {
      if (!row[x]) continue;
      let run = 1;
      while (x + run < size && row[x + run]) run++;
      d += "M" + (x + quiet) + " " + (y + quiet) + "h" + run + "v1h-" + run + "z";
      x += run - 1;
    }
  });
  return '<svg xmlns="http://www.w3.org/2000/svg" width="' + side * scale + '" height="' + side * scale +
    '" viewBox="0 0 ' + side + " " + side + '" shape-rendering="crispEdges">' +
    '<rect width="' + side + '" height="' + side + '" fill="#fff"/><path fill="#000" d="' + d + '"/></svg>';
}
