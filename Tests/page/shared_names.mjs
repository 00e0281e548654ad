// Counts the top-level names shared across the studio page's files (Sources/SpringStudio/Page/Assets/*.js)
// other than through import/export, and prints
//     shared top-level names across page files: N
// with one line per name under it; exits 1 when N is not 0. Run from the repository root:
//     node Tests/page/shared_names.mjs [FOLDER]
// (FOLDER: the page's files, by default Sources/SpringStudio/Page/Assets). A name counts when it is
//   - declared at top level (brace, bracket and parenthesis depth 0: `function`, `async function`,
//     `class`, `const`, `let`, `var`, destructuring included) in two or more files, or
//   - used in one file, declared at top level in another, and neither imported nor declared
//     anywhere (at any depth: a local, a parameter) in the file that uses it, or
//   - set as a global (`window.NAME =`, `globalThis.NAME =`, `self.NAME =`) in one file and read
//     (as NAME or as window.NAME) in another.
// Parser-light, no packages: comments, strings, template text and regular expressions are taken
// out by a small tokenizer; a use is an identifier that is not a property (after `.` or `?.`), an
// object key (`{ key:` / `, key:`) or a method's name (`name(…) {`). A local declared anywhere in
// the using file hides the name in all of that file (a false negative this check accepts: it
// leans towards not crying wolf, and the page keeps its files' names distinct anyway).
// Tests/page/shared_names.test.mjs runs it on small files that share names each of these ways.
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const KEYWORDS = new Set(("break case catch class const continue debugger default delete do else export extends finally for " +
  "function if import in instanceof new return super switch this throw try typeof var void while with yield let static " +
  "async await of get set as null true false").split(" "));
const OPEN = new Set(["(", "[", "{", "${"]), CLOSE = new Set([")", "]", "}"]);
const PUNCT = ["...", "===", "!==", "**=", "<<=", ">>=", ">>>", "&&=", "||=", "??=", "=>", "==", "!=", "<=", ">=", "&&", "||", "??",
  "?.", "++", "--", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<", ">>", "**"];

/// The tokens of `src`: {type: "id" | "num" | "str" | "regex" | "p", value, line}; comments and
/// whitespace dropped, a template literal's text as "str" tokens and its `${ … }` as tokens.
export function tokenize(src) {
  const out = [], braces = []; // braces: "{" or "${" for each open brace, to resume a template at its "}"
  let i = 0, line = 1;
  const push = (type, value) => out.push({ type, value, line });
  const regexAllowed = () => {
    const t = out[out.length - 1];
    if (!t) return true;
    if (t.type === "num" || t.type === "str" || t.type === "regex") return false;
    if (t.type === "id") return KEYWORDS.has(t.value) && !["this", "super", "null", "true", "false"].includes(t.value);
    return ![")", "]", "}"].includes(t.value);
  };
  const template = () => { // from just after "`" or a template's "}": text up to "`" or "${"
    let text = "";
    while (i < src.length) {
      const c = src[i];
      if (c === "\\") { text += src.slice(i, i + 2); i += 2; continue; }
      if (c === "`") { i++; push("str", text); return; }
      if (c === "$" && src[i + 1] === "{") { i += 2; push("str", text); push("p", "${"); braces.push("${"); return; }
      if (c === "\n") line++;
      text += c;
      i++;
    }
    throw new Error("line " + line + ": unterminated template literal");
  };
  while (i < src.length) {
    const c = src[i];
    if (c === "\n") { line++; i++; continue; }
    if (/\s/.test(c)) { i++; continue; }
    if (c === "/" && src[i + 1] === "/") { while (i < src.length && src[i] !== "\n") i++; continue; }
    if (c === "/" && src[i + 1] === "*") {
      const end = src.indexOf("*/", i + 2);
      if (end < 0) throw new Error("line " + line + ": unterminated comment");
      line += (src.slice(i, end).match(/\n/g) || []).length;
      i = end + 2;
      continue;
    }
    if (c === '"' || c === "'") {
      let j = i + 1;
      while (j < src.length && src[j] !== c) { if (src[j] === "\\") j++; if (src[j] === "\n") throw new Error("line " + line + ": newline in a string"); j++; }
      push("str", src.slice(i + 1, j));
      i = j + 1;
      continue;
    }
    if (c === "`") { i++; template(); continue; }
    if (c === "/" && regexAllowed()) {
      let j = i + 1, inClass = false;
      while (j < src.length && (inClass || src[j] !== "/")) {
        if (src[j] === "\\") j++;
        else if (src[j] === "[") inClass = true;
        else if (src[j] === "]") inClass = false;
        else if (src[j] === "\n") throw new Error("line " + line + ": newline in a regular expression");
        j++;
      }
      j++;
      while (j < src.length && /[a-z]/i.test(src[j])) j++;
      push("regex", src.slice(i, j));
      i = j;
      continue;
    }
    const id = /^[\p{L}_$][\p{L}\p{N}_$\u200c\u200d]*/u.exec(src.slice(i, i + 200));
    if (id) { push("id", id[0]); i += id[0].length; continue; }
    const num = /^(0[xXbBoO][\da-fA-F_]+|\d[\d_]*\.?[\d_]*([eE][+-]?\d+)?|\.\d+([eE][+-]?\d+)?)n?/.exec(src.slice(i, i + 100));
    if (num) { push("num", num[0]); i += num[0].length; continue; }
    if (c === "}" && braces.length && braces[braces.length - 1] === "${") {
      braces.pop();
      push("p", "}");
      i++;
      template();
      continue;
    }
    if (c === "{") braces.push("{");
    if (c === "}") braces.pop();
    const op = PUNCT.find((p) => src.startsWith(p, i)) || c;
    push("p", op);
    i += op.length;
  }
  return out;
}

const is = (t, value) => t !== undefined && t.type === "p" && t.value === value;
const isId = (t) => t !== undefined && t.type === "id" && !KEYWORDS.has(t.value);

/// The index after the expression starting at `i`: up to a `,` or `;` at its own depth, or the
/// bracket closing the one it is in, or (`stopAtOf`) the word `of` or `in` at its own depth.
function skipExpression(toks, i, stopAtOf = false) {
  let depth = 0;
  for (; i < toks.length; i++) {
    const t = toks[i];
    if (t.type === "p" && OPEN.has(t.value)) depth++;
    else if (t.type === "p" && CLOSE.has(t.value)) { if (depth === 0) return i; depth--; }
    else if (depth === 0 && (is(t, ",") || is(t, ";"))) return i;
    else if (depth === 0 && stopAtOf && t.type === "id" && (t.value === "of" || t.value === "in")) return i;
  }
  return i;
}

/// The binding names of the pattern at `i` (a name, `{…}` or `[…]`) into `names`; returns the
/// index after it (and after its default value `= …`, when `withDefault`).
function pattern(toks, i, names, withDefault) {
  const t = toks[i];
  if (isId(t)) { names.push(t.value); i++; }
  else if (is(t, "{")) {
    i++;
    while (i < toks.length && !is(toks[i], "}")) {
      if (is(toks[i], "...")) { i = pattern(toks, i + 1, names, false); }
      else if (is(toks[i], "[")) { // a computed key: skip it, then its value's pattern
        let depth = 0;
        do { if (is(toks[i], "[")) depth++; if (is(toks[i], "]")) depth--; i++; } while (depth > 0 && i < toks.length);
        i = is(toks[i], ":") ? pattern(toks, i + 1, names, true) : i;
      } else if (is(toks[i + 1], ":")) { i = pattern(toks, i + 2, names, true); }
      else { i = pattern(toks, i, names, true); }
      if (is(toks[i], ",")) i++;
      else if (!is(toks[i], "}")) { i = skipExpression(toks, i); if (is(toks[i], ",")) i++; }
    }
    i++;
  } else if (is(t, "[")) {
    i++;
    while (i < toks.length && !is(toks[i], "]")) {
      if (is(toks[i], ",")) { i++; continue; }
      i = is(toks[i], "...") ? pattern(toks, i + 1, names, false) : pattern(toks, i, names, true);
      if (is(toks[i], ",")) i++;
      else if (!is(toks[i], "]")) { i = skipExpression(toks, i); if (is(toks[i], ",")) i++; }
    }
    i++;
  } else {
    return i + 1; // not a pattern (a parser-light check: move on)
  }
  if (withDefault && is(toks[i], "=")) i = skipExpression(toks, i + 1);
  return i;
}

/// The parameters' names of the list whose "(" is at `i`; returns the index after its ")".
function parameters(toks, i, names) {
  i++;
  while (i < toks.length && !is(toks[i], ")")) {
    i = is(toks[i], "...") ? pattern(toks, i + 1, names, false) : pattern(toks, i, names, true);
    if (is(toks[i], ",")) i++;
    else if (!is(toks[i], ")")) { i = skipExpression(toks, i); if (is(toks[i], ",")) i++; }
  }
  return i + 1;
}

/// The index of the bracket matching the one at `i` (scanning forwards from an opener).
function matching(toks, i) {
  let depth = 0;
  for (let j = i; j < toks.length; j++) {
    if (toks[j].type === "p" && OPEN.has(toks[j].value)) depth++;
    else if (toks[j].type === "p" && CLOSE.has(toks[j].value) && --depth === 0) return j;
  }
  return toks.length;
}

/// One file's names: `top` (declared at top level: name -> line), `local` (declared anywhere),
/// `imported`, `used` (name -> first line) and `globals` (set as window.NAME and the like: name -> line).
export function fileNames(src) {
  const toks = tokenize(src);
  const top = new Map(), local = new Set(), imported = new Set(), used = new Map(), globals = new Map();
  const skip = new Set(); // token indices that are no use of a name: the exported name in `export { a as b }`
  // A declared name is a local of the file, and at depth 0 a top-level name; its uses in this
  // file are then never counted (they are the file's own).
  const declare = (names, depth, line) => {
    for (const n of names) { local.add(n); if (depth === 0 && !top.has(n)) top.set(n, line); }
  };
  let depth = 0;
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i], prev = toks[i - 1], afterDot = is(prev, ".") || is(prev, "?.");
    if (t.type === "p" && OPEN.has(t.value)) { depth++; continue; }
    if (t.type === "p" && CLOSE.has(t.value)) { depth--; continue; }
    if (t.type !== "id" || afterDot) continue;
    if (t.value === "import" && depth === 0 && !is(toks[i + 1], "(")) {
      let j = i + 1;
      // `import { a, b as c } from "…"`, `import * as ns from "…"`, `import d from "…"`: a, c, ns, d.
      for (; j < toks.length && !(toks[j].type === "id" && toks[j].value === "from") && toks[j].type !== "str"; j++) {
        if (isId(toks[j]) && !(toks[j + 1] && toks[j + 1].value === "as")) imported.add(toks[j].value);
      }
      i = j;
      continue;
    }
    if (t.value === "export" && depth === 0 && is(toks[i + 1], "{")) { // export { a as b }: a is a use of the file's own a
      const end = matching(toks, i + 1);
      for (let j = i + 2; j < end; j++) if (toks[j - 1] && toks[j - 1].value === "as") skip.add(j);
      continue;
    }
    if (t.value === "function" || t.value === "class") {
      let j = i + 1;
      if (is(toks[j], "*")) j++;
      if (isId(toks[j])) declare([toks[j].value], depth, toks[j].line), j++;
      if (t.value === "function" && is(toks[j], "(")) { const names = []; parameters(toks, j, names); declare(names, 1, t.line); }
      continue;
    }
    if (t.value === "const" || t.value === "let" || t.value === "var") {
      let j = i + 1;
      const names = [];
      while (j < toks.length) {
        j = pattern(toks, j, names, false);
        if (is(toks[j], "=")) j = skipExpression(toks, j + 1, false);
        if (!is(toks[j], ",")) break;
        j++;
      }
      declare(names, depth, t.line);
      continue;
    }
    if (t.value === "catch" && is(toks[i + 1], "(")) { const names = []; parameters(toks, i + 1, names); declare(names, 1, t.line); continue; }
    if (KEYWORDS.has(t.value)) continue;
    // An arrow function's parameter (`x =>`), an object key (`{ key:` / `, key:`), a method (`name(…) {`).
    if (is(toks[i + 1], "=>")) { declare([t.value], 1, t.line); continue; }
    if (is(toks[i + 1], ":") && (is(prev, "{") || is(prev, ","))) continue;
    if (is(toks[i + 1], "(") && is(toks[matching(toks, i + 1) + 1], "{") &&
        (is(prev, "{") || is(prev, ",") || is(prev, "}") || is(prev, ";") || is(prev, "*") ||
         (prev && prev.type === "id" && ["get", "set", "static", "async"].includes(prev.value)))) {
      const names = [];
      parameters(toks, i + 1, names);
      declare(names, 1, t.line);
      continue;
    }
    // Globals set by assignment: window.NAME = …
    if (["window", "globalThis", "self"].includes(t.value) && is(toks[i + 1], ".") && isId(toks[i + 2]) && is(toks[i + 3], "=")) {
      if (!globals.has(toks[i + 2].value)) globals.set(toks[i + 2].value, t.line);
    }
    if (skip.has(i)) continue;
    if (!used.has(t.value)) used.set(t.value, t.line);
  }
  // Arrow functions' parenthesised parameters: `(a, {b}) =>`.
  for (let i = 0; i < toks.length; i++) {
    if (!is(toks[i], "=>") || !is(toks[i - 1], ")")) continue;
    let depth = 0, j = i - 1;
    for (; j >= 0; j--) {
      if (toks[j].type === "p" && CLOSE.has(toks[j].value)) depth++;
      else if (toks[j].type === "p" && OPEN.has(toks[j].value) && --depth === 0) break;
    }
    const names = [];
    parameters(toks, j, names);
    for (const n of names) local.add(n);
  }
  // Properties read as window.NAME count as uses of a global NAME.
  for (let i = 0; i + 2 < toks.length; i++) {
    if (toks[i].type === "id" && ["window", "globalThis", "self"].includes(toks[i].value) && is(toks[i + 1], ".") && isId(toks[i + 2]) && !is(toks[i + 3], "=")) {
      if (!used.has(toks[i + 2].value)) used.set(toks[i + 2].value, toks[i + 2].line);
    }
  }
  return { top, local, imported, used, globals };
}

/// The names shared across `files` ({name: source}): [{name, how}] sorted by name, one entry per
/// name and way it is shared.
export function sharedNames(files) {
  const seen = Object.entries(files).map(([file, src]) => {
    try { return [file, fileNames(src)]; } catch (e) { throw new Error(file + ": " + e.message); }
  });
  const found = [];
  const declaredIn = new Map();
  for (const [file, n] of seen) for (const [name, line] of n.top) {
    if (!declaredIn.has(name)) declaredIn.set(name, []);
    declaredIn.get(name).push(file + ":" + line);
  }
  for (const [name, where] of declaredIn) if (where.length > 1) found.push({ name, how: "declared at top level in " + where.join(" and ") });
  for (const [file, n] of seen) {
    for (const [name, line] of n.used) {
      if (n.imported.has(name) || n.local.has(name)) continue;
      const elsewhere = (declaredIn.get(name) || []).filter((w) => !w.startsWith(file + ":"));
      if (elsewhere.length) found.push({ name, how: "used in " + file + ":" + line + " without an import, declared at top level in " + elsewhere.join(", ") });
      const setter = seen.find(([other, m]) => other !== file && m.globals.has(name));
      if (setter) found.push({ name, how: "read in " + file + ":" + line + ", set as a global in " + setter[0] + ":" + setter[1].globals.get(name) });
    }
  }
  const names = new Map();
  for (const f of found) { if (!names.has(f.name)) names.set(f.name, []); names.get(f.name).push(f.how); }
  return [...names.keys()].sort().map((name) => ({ name, how: names.get(name) }));
}

/// The page's files in `folder`: every *.js, by name.
export function pageFiles(folder) {
  return Object.fromEntries(readdirSync(folder).filter((f) => f.endsWith(".js")).sort().map((f) => [f, readFileSync(join(folder, f), "utf8")]));
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const folder = process.argv[2] || "Sources/SpringStudio/Page/Assets";
  const shared = sharedNames(pageFiles(folder));
  console.log("shared top-level names across page files: " + shared.length);
  for (const { name, how } of shared) console.log("  " + name + ": " + how.join("; "));
  process.exit(shared.length === 0 ? 0 : 1);
}
