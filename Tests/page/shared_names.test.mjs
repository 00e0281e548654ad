// shared_names.mjs: the page shares no top-level name across its files, and the check itself
// finds each way of sharing one (on small made-up files).
import { test } from "node:test";
import assert from "node:assert/strict";
import { ASSETS } from "./page.mjs";
import { fileNames, pageFiles, sharedNames, tokenize } from "./shared_names.mjs";

test("the page's files share no top-level name but through import/export", () => {
  const files = pageFiles(ASSETS);
  assert.ok(Object.keys(files).length >= 12, Object.keys(files).join(" "));
  assert.deepEqual(sharedNames(files), []);
});

test("a name declared at top level in two files counts once", () => {
  const shared = sharedNames({
    "a.js": "function short(x) { return x; }\nconst LIMIT = 1;\n",
    "b.js": "const short = (x) => x;\nfunction other() { const LIMIT = 2; return LIMIT; }\n",
  });
  assert.deepEqual(shared.map((s) => s.name), ["short"]);
});

test("a name used without an import where another file declares it counts; an import or a local does not", () => {
  const shared = sharedNames({
    "state.js": "export let preset = null;\nexport function api(path) { return fetch(path); }\nexport const clock = { t: 0 };\n",
    "uses.js": "function f() { return preset.name + api('/x'); }\n",
    "imports.js": 'import { preset, api } from "./state.js";\nexport function g() { return preset.name + api("/y"); }\n',
    "locals.js": "export function h(preset) { const clock = 1; return preset + clock; }\n",
    "props.js": "export function k(o) { return o.preset + o?.clock + { preset: 1 }.preset; }\nconst m = { clock() { return 1; } };\n",
  });
  assert.deepEqual(shared.map((s) => s.name), ["api", "preset"]);
  assert.ok(shared.every((s) => s.how.length === 1 && s.how[0].startsWith("used in uses.js")), JSON.stringify(shared));
});

test("a global set in one file and read in another counts", () => {
  const shared = sharedNames({
    "a.js": "window.studio = { x: 1 };\nglobalThis.handle = 2;\n",
    "b.js": "export function f() { return studio.x + window.handle; }\n",
    "c.js": "window.alone = 3;\n",
  });
  assert.deepEqual(shared.map((s) => s.name), ["handle", "studio"]);
});

test("comments, strings, templates and regular expressions hide no declaration and make none", () => {
  const src = [
    "// function commented() {}",
    "/* const alsoCommented = 1; */",
    'const text = "function inString() {}", other = `const inTemplate = ${1 + (() => { const inner = 2; return inner; })()}`;',
    "const pattern = /function inRegex\\/[}{]/g, ratio = 4 / 2 / 1;",
    "{ const blockScoped = 1; }",
    "export async function visible({ a, b: [c, ...d] = [], e = 1 }, ...rest) { return a; }",
    "let x = 1, { y, z: w } = { y: 2, z: 3 };",
  ].join("\n");
  const { top, local } = fileNames(src);
  assert.deepEqual([...top.keys()].sort(), ["other", "pattern", "ratio", "text", "visible", "w", "x", "y"]);
  for (const n of ["a", "c", "d", "e", "rest", "inner", "blockScoped"]) assert.ok(local.has(n), n);
  assert.equal(tokenize(src).filter((t) => t.type === "regex").length, 1);
});
