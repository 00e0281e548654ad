// The engine's WebAssembly module (`make wasm`, Reference §15) as a page instantiates it: the
// functions it imports from module "math" (JavaScript's, which agree with the C library's to
// within an ulp or two) and the bytes of out/wasm/engine.wasm. Shared by the node tests.
import { readFileSync, existsSync } from "node:fs";

/** Every function the module may import, by the name it imports it under. */
export const math = { exp: Math.exp, cos: Math.cos, sin: Math.sin, cosh: Math.cosh, sinh: Math.sinh,
  acos: Math.acos, log: Math.log, atan2: Math.atan2, atanh: Math.atanh };

/** The module's bytes; throws when `make wasm` has not run. */
export function engineBytes() {
  const path = new URL("../../out/wasm/engine.wasm", import.meta.url);
  if (!existsSync(path)) throw new Error("out/wasm/engine.wasm is missing: run make wasm first");
  return readFileSync(path);
}

/** A fresh instance of the module: its exports (memory, exchangeArea, startEngine, …). */
export async function instantiateEngine() {
  return (await WebAssembly.instantiate(engineBytes(), { math })).instance.exports;
}
