// api.js: one function per operation of the OpenAPI document (the list Server/StudioOperations.swift), each
// with its method, path, body and the token's header, against a stand-in for fetch.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ASSETS, pageModule } from "./page.mjs";

globalThis.location = { search: "?token=t0k3n", protocol: "http:", host: "127.0.0.1:8137", href: "http://127.0.0.1:8137/?token=t0k3n" };
const sent = [];
let reply = { status: 200, body: { ok: true } };
globalThis.fetch = async (path, init) => {
  sent.push({ path, method: init.method, headers: init.headers, body: init.body });
  const { status, body } = reply;
  return {
    ok: status >= 200 && status < 300, status, statusText: "status " + status,
    json: async () => body, text: async () => String(body), blob: async () => ({ blob: body }),
  };
};
const api = await pageModule("api.js");
const last = () => sent[sent.length - 1];

test("every operation of the OpenAPI document has its function, named by its operationId", () => {
  const swift = readFileSync(join(ASSETS, "../../Server/StudioOperations.swift"), "utf8");
  const ids = [...swift.matchAll(/\bid: "(\w+)"/g)].map((m) => m[1]);
  assert.ok(ids.length >= 19 && ids.includes("live"), ids.join(" "));
  for (const id of ids) assert.equal(typeof api[id], "function", id);
});

test("the JSON operations: method, path, body, the token as a bearer header", async () => {
  const params = { damping: 0.5, frequency: 4 };
  const cases = [
    [() => api.openapi(), "GET", "/openapi.json", undefined],
    [() => api.preset(), "GET", "/api/preset", undefined],
    [() => api.replay(params, ["fling-1"]), "POST", "/api/replay", '{"params":{"damping":0.5,"frequency":4},"traces":["fling-1"]}'],
    [() => api.evaluate(params), "POST", "/api/evaluate", '{"params":{"damping":0.5,"frequency":4}}'],
    [() => api.candidates("4"), "GET", "/api/candidates?k=4", undefined],
    [() => api.choose(3, { worst: 7 }), "POST", "/api/choices", '{"round":3,"worst":7}'],
    [() => api.choose(3, { same: true }), "POST", "/api/choices", '{"round":3,"same":true}'],
    [() => api.undo(), "DELETE", "/api/choices/last", undefined],
    [() => api.best(), "GET", "/api/best", undefined],
    [() => api.space([{ name: "damping", from: 0.2, to: 1 }]), "POST", "/api/space", '{"free":[{"name":"damping","from":0.2,"to":1}]}'],
    [() => api.objective(), "GET", "/api/objective", undefined],
    [() => api.setObjective({ constraints: ["a <= 1"], targets: [] }), "PUT", "/api/objective", '{"constraints":["a <= 1"],"targets":[]}'],
    [() => api.recordings(), "GET", "/api/recordings", undefined],
    [() => api.label("live-1", { used: true }), "POST", "/api/recordings/live-1", '{"used":true}'],
    [() => api.recordingsMeta(), "GET", "/api/recordings.meta.json", undefined],
    [() => api.code(params, "swiftui"), "POST", "/api/code", '{"params":{"damping":0.5,"frequency":4},"format":"swiftui"}'],
    [() => api.export("mine"), "POST", "/api/export", '{"name":"mine"}'],
  ];
  for (const [call, method, path, body] of cases) {
    assert.deepEqual(await call(), { ok: true });
    assert.deepEqual(last(), { path, method, body, headers: { "Authorization": "Bearer t0k3n", "Content-Type": "application/json" } }, path);
  }
});

test("the file operations: the session as a Blob, the recordings as CSV text", async () => {
  reply = { status: 200, body: "id,t\n" };
  assert.equal(await api.recordingsCSV(), "id,t\n");
  assert.deepEqual(last(), { path: "/api/recordings.csv", method: "GET", body: undefined, headers: { "Authorization": "Bearer t0k3n" } });
  assert.deepEqual(await api.session(), { blob: "id,t\n" });
  assert.equal(last().path, "/api/session.sqlite");
  reply = { status: 200, body: { ok: true } };
});

test("an error answer rejects with the server's one line", async () => {
  reply = { status: 409, body: { error: "round 6 is answered already" } };
  await assert.rejects(api.choose(6, { worst: 1 }), { message: "round 6 is answered already" });
  reply = { status: 401, body: {} };
  await assert.rejects(api.best(), { message: "status 401" });
  await assert.rejects(api.session(), { message: "status 401" });
  reply = { status: 200, body: { ok: true } };
});

test("the token where no header can go: the CSV link and the live socket", () => {
  assert.equal(api.hasToken(), true);
  assert.equal(api.recordingsCSVLink(), "/api/recordings.csv?token=t0k3n");
  assert.equal(api.liveURL(), "ws://127.0.0.1:8137/api/live?token=t0k3n");
  globalThis.location.protocol = "https:";
  assert.equal(api.liveURL(), "wss://127.0.0.1:8137/api/live?token=t0k3n");
  globalThis.location.protocol = "http:";
});

test("no other page file names an API path or the token's header", () => {
  for (const f of ["studio.js", "learn.js", "levers.js", "live.js", "metrics.js", "stage.js", "qr.js", "dom.js", "format.js", "state.js", "sliders.js", "report.js"]) {
    const src = readFileSync(join(ASSETS, f), "utf8").replace(/\/\/.*$/gm, "");
    assert.ok(!/["'`]\/api\/|\/openapi\.json|Authorization|Bearer/.test(src), f);
  }
});
