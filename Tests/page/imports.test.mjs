// The page's modules as the browser loads them: index.html's one entry, studio.js; every import
// resolves to a module the server serves (Page/StudioAssets.swift) and to a name it exports; the
// imports form no cycle (studio.js -> learn.js, levers.js, live.js, never back).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { ASSETS } from "./page.mjs";

const files = Object.fromEntries(readdirSync(ASSETS).filter((f) => f.endsWith(".js")).map((f) => [f, readFileSync(join(ASSETS, f), "utf8")]));
const code = (src) => src.replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");

/// {module: {from: [module], names: {module: [name]}}}, and each module's exported names.
function graph() {
  const imports = {}, exports = {};
  for (const [f, src] of Object.entries(files)) {
    const text = code(src);
    exports[f] = new Set([...text.matchAll(/^export (?:async function|function|const|let|class) ([\w$]+)/gm)].map((m) => m[1])
      .concat([...text.matchAll(/^export \{([^}]*)\}/gm)].flatMap((m) => m[1].split(",").map((s) => s.trim().split(/\s+as\s+/).pop()))));
    imports[f] = [...text.matchAll(/^import (?:\{([^}]*)\}|\* as ([\w$]+)) from "\.\/([\w.]+)";$/gm)].map((m) => ({
      module: m[3], names: m[1] ? m[1].split(",").map((s) => s.trim().split(/\s+as\s+/)[0]) : null, namespace: m[2] || null,
    }));
    assert.equal(imports[f].length, (text.match(/^import\b/gm) || []).length, f + ": an import not in the form `import { … } from \"./x.js\";` or `import * as x from \"./x.js\";`");
  }
  return { imports, exports };
}

test("index.html loads one script, the entry studio.js, as a module", () => {
  const html = readFileSync(join(ASSETS, "index.html"), "utf8");
  assert.deepEqual(html.match(/<script\b[^>]*>/g), ['<script type="module" src="/studio.js">']);
});

test("every import names a module the server serves and names it exports", () => {
  const { imports, exports } = graph();
  const served = new Set([...readFileSync(join(ASSETS, "../StudioAssets.swift"), "utf8").matchAll(/path: "\/([\w.]+\.js)"/g)].map((m) => m[1]));
  const seen = new Set(), todo = ["studio.js"];
  while (todo.length) {
    const f = todo.pop();
    if (seen.has(f)) continue;
    seen.add(f);
    assert.ok(served.has(f), f + " is imported by the page but not served (StudioAssets.swift)");
    for (const { module, names, namespace } of imports[f]) {
      assert.ok(files[module], `${f} imports ${module}, which is not a page file`);
      for (const n of names || []) assert.ok(exports[module].has(n), `${f} imports ${n} from ${module}, which does not export it`);
      if (namespace) {
        for (const m of code(files[f]).matchAll(new RegExp("(?<![\\w$./])" + namespace + "\\.([\\w$]+)", "g"))) {
          assert.ok(exports[module].has(m[1]), `${f} calls ${namespace}.${m[1]}, which ${module} does not export`);
        }
      }
      todo.push(module);
    }
  }
  assert.deepEqual([...served].sort(), [...seen].sort(), "the served scripts are the ones the page imports");
});

test("the imports form no cycle", () => {
  const { imports } = graph();
  const state = {}; // undefined: not seen, 1: on the path, 2: done
  const visit = (f, path) => {
    if (state[f] === 2) return;
    assert.notEqual(state[f], 1, "an import cycle: " + [...path, f].join(" -> "));
    state[f] = 1;
    for (const { module } of imports[f]) visit(module, [...path, f]);
    state[f] = 2;
  };
  for (const f of Object.keys(files)) visit(f, []);
  for (const f of ["learn.js", "levers.js", "live.js"]) assert.ok(!imports[f].some((i) => i.module === "studio.js"), f);
});
