// The session report's scripts (Replay/StudioReport.swift, `inlinedModules`): format.js, stage.js
// and report.js inlined as one module script, their import lines taken out and `export ` cut from
// their declarations (an inline script of a file:// page cannot import by URL). This checks the
// strict form that cut relies on, with the same rules as the Swift, and that the result parses.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ASSETS } from "./page.mjs";
import { fileNames } from "./shared_names.mjs";

/// The module names a Swift file lists under `static let NAME` (`("x.js", PackageResources.x_js)`, in order).
function listedModules(file, name) {
  const swift = readFileSync(join(ASSETS, "../../Replay", file), "utf8"), listed = swift.indexOf(`static let ${name}`);
  return [...swift.slice(listed, swift.indexOf("\n    ]", listed)).matchAll(/\("([\w.]+)", PackageResources\.(\w+)\)/g)].map((m) => m[1]);
}
const modules = listedModules("StudioReport.swift", "reportModules");
const prototypeModules = listedModules("StudioPrototype.swift", "modules");
const IMPORT = /^import \{ ([A-Za-z_$][\w$]*(?:, [A-Za-z_$][\w$]*)*) \} from "\.\/([\w]+\.js)";$/;
const EXPORT = /^export (?:async function|function|const|let|class) ([A-Za-z_$][\w$]*)/;

/// The Swift's cut, in JS: the modules' text, and each module's imports and exports.
function inline(list = modules) {
  const exported = {}, imports = {}, parts = [];
  for (const name of list) {
    const lines = [], names = new Set();
    imports[name] = [];
    for (const line of readFileSync(join(ASSETS, name), "utf8").split("\n")) {
      if (line.startsWith("import")) {
        const m = IMPORT.exec(line);
        assert.ok(m, `${name}: not the strict import form: ${line}`);
        assert.ok(exported[m[2]], `${name} imports ${m[2]}, not a module before it in the list`);
        for (const n of m[1].split(", ")) assert.ok(exported[m[2]].has(n), `${name} imports ${n}, which ${m[2]} does not export as a declaration`);
        imports[name].push(m[2]);
        continue;
      }
      if (line.startsWith("export")) {
        const m = EXPORT.exec(line);
        assert.ok(m, `${name}: not an export function|const|let|class declaration: ${line}`);
        names.add(m[1]);
        lines.push(line.slice("export ".length));
        continue;
      }
      lines.push(line);
    }
    exported[name] = names;
    parts.push(`// ---- ${name}\n` + lines.join("\n"));
  }
  return { text: "\n" + parts.join("\n") + "\n", imports };
}

test("the report inlines format.js, stage.js and report.js, each importing only the ones before it", () => {
  assert.deepEqual(modules, ["format.js", "stage.js", "report.js"]);
  const { imports } = inline();
  assert.deepEqual(imports, { "format.js": [], "stage.js": [], "report.js": ["format.js", "stage.js"] });
});

test("no import or export is left, and no line of them starts otherwise (dynamic import, export default)", () => {
  const { text } = inline();
  assert.ok(!/^\s*(import|export)\b/m.test(text));
  assert.ok(!/\bimport\s*\(/.test(text));
});

test("the inlined text parses as strict code, with the report's names declared once", () => {
  const { text } = inline();
  assert.doesNotThrow(() => new Function('"use strict";\n' + text));
  const { top } = fileNames(text);
  for (const n of ["short", "numberWithUnit", "drawStage", "makeMagnifier", "interpolatedFrame", "data", "table"]) assert.ok(top.has(n), n);
});

test("the inlined text names no address and no file (the report asks for nothing)", () => {
  const { text } = inline();
  assert.ok(!/https?:\/\/|src=|href=/.test(text));
});

test("the prototype inlines pictures.js, engine.js, stage.js, touch.js and prototype.js, each importing only the ones before it", () => {
  assert.deepEqual(prototypeModules, ["pictures.js", "engine.js", "stage.js", "touch.js", "prototype.js"]);
  const { text, imports } = inline(prototypeModules);
  assert.deepEqual(imports["prototype.js"], ["engine.js", "pictures.js", "stage.js", "touch.js"]);
  assert.ok(!/^\s*(import|export)\b/m.test(text) && !/\bimport\s*\(/.test(text));
  assert.doesNotThrow(() => new Function('"use strict";\n' + text));
  assert.ok(!/https?:\/\/|src=|href=|fetch\(|WebSocket|XMLHttpRequest/.test(text), "the prototype asks for nothing");
});
