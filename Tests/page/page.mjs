// Loads the studio page's modules (Sources/SpringStudio/Page/Assets/*.js) under node for the unit
// tests of Tests/page/*.test.mjs (run: `node --test Tests/page/`, node 18 or later, no packages).
// The page's files end in .js with no package.json that says "module" (the binary embeds the
// folder as it is), and node 18 and 20 read such a file as CommonJS; so the files are copied once
// per test process into a temporary folder with a package.json of {"type": "module"} and
// imported from there (their own relative imports then resolve to the copies).
import { copyFileSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

/// The page's folder in the checkout.
export const ASSETS = join(dirname(fileURLToPath(import.meta.url)), "../../Sources/SpringStudio/Page/Assets");

let copy = null;

/// The page module `name` ("format.js", …) as node imports it.
export function pageModule(name) {
  if (copy === null) {
    copy = mkdtempSync(join(tmpdir(), "springtune-page-"));
    for (const f of readdirSync(ASSETS)) if (f.endsWith(".js")) copyFileSync(join(ASSETS, f), join(copy, f));
    writeFileSync(join(copy, "package.json"), '{"type": "module"}\n');
    const folder = copy;
    process.on("exit", () => rmSync(folder, { recursive: true, force: true }));
  }
  return import(pathToFileURL(join(copy, name)).href);
}
