// The studio's JSON API as the page calls it (Reference §10.16; the operations of
// Contract/StudioOpenAPI.swift, one function each, named by its operationId, and the live
// socket). The only file of the page that knows the paths, the methods, the request bodies'
// field names and how the token goes (the `Authorization` header; in the query where a link or
// a WebSocket cannot send a header). Each function resolves to the answer's JSON (session and
// recordingsCSV: the file as a Blob or text) and rejects with an Error carrying the server's
// one-line `error` on any status other than 2xx.

/// The page's token: `?token=` of the address it was opened by ("" when none).
const token = new URLSearchParams(globalThis.location ? globalThis.location.search : "").get("token") || "";

/// True when the page was opened with a token (an error can then say what is missing).
export function hasToken() { return token !== ""; }

/// `body` as JSON, or as it is when `type` (its media type) is given: a file.
async function call(method, path, body, type) {
  const response = await fetch(path, {
    method, headers: { "Authorization": "Bearer " + token, "Content-Type": type || "application/json" },
    body: body === undefined || type ? body : JSON.stringify(body),
  });
  const answer = await response.json();
  if (!response.ok) throw new Error(answer.error || response.statusText);
  return answer;
}

/// A file answer (not JSON) as `read(response)`; an error answer is still one line of JSON.
async function file(path, read) {
  const response = await fetch(path, { method: "GET", headers: { "Authorization": "Bearer " + token } });
  if (!response.ok) {
    const answer = await response.json().catch(() => ({}));
    throw new Error(answer.error || response.statusText);
  }
  return read(response);
}

/// GET /openapi.json: the API's OpenAPI document.
export function openapi() { return call("GET", "/openapi.json"); }
/// GET /api/preset: the preset, its axes, parameters, metrics, objective, traces and screen.
export function preset() { return call("GET", "/api/preset"); }
/// POST /api/replay: the frames of `params` on the traces `traces` (ids).
export function replay(params, traces) { return call("POST", "/api/replay", { params, traces }); }
/// POST /api/evaluate: the report row of `params` over every trace, its verdicts and intervals.
export function evaluate(params) { return call("POST", "/api/evaluate", { params }); }
/// GET /api/candidates: the open round of `k` candidates (a new one when none is open).
export function candidates(k) { return call("GET", "/api/candidates?k=" + k); }
/// POST /api/choices: the answer `choice` ({worst: id}, {best: id} or {same: true}) to round `round`.
export function choose(round, choice) { return call("POST", "/api/choices", { round, ...choice }); }
/// DELETE /api/choices/last: undoes the last answer.
export function undo() { return call("DELETE", "/api/choices/last"); }
/// GET /api/best: the model's best set, its metrics, margins, support, how sure, the map.
export function best() { return call("GET", "/api/best"); }
/// POST /api/space: the levers, `free` a list of {name, from?, to?, log?}; answers the new preset.
export function space(free) { return call("POST", "/api/space", { free }); }
/// GET /api/objective: the session's objective.
export function objective() { return call("GET", "/api/objective"); }
/// PUT /api/objective: `body` ({constraints, targets, minimize?|maximize?, confidence?}) as the objective.
export function setObjective(body) { return call("PUT", "/api/objective", body); }
/// GET /api/session.sqlite: a consistent copy of the session, as a Blob.
export function session() { return file("/api/session.sqlite", (r) => r.blob()); }
/// GET /api/recordings: the session's recordings.
export function recordings() { return call("GET", "/api/recordings"); }
/// POST /api/recordings/{id}: labels recording `id` or adds it to the traces (`change`: {intent} or {used}).
export function label(id, change) { return call("POST", "/api/recordings/" + encodeURIComponent(id), change); }
/// GET /api/recordings.csv: the recordings as CSV text.
export function recordingsCSV() { return file("/api/recordings.csv", (r) => r.text()); }
/// GET /api/recordings.meta.json: the recordings' metadata.
export function recordingsMeta() { return call("GET", "/api/recordings.meta.json"); }
/// POST /api/code: `params` written as `springtune export --format FORMAT` writes them.
export function code(params, format) { return call("POST", "/api/code", { params, format }); }
/// POST /api/export: the best as the preset file `name` in the session's folder.
function exportBest(name) { return call("POST", "/api/export", { name }); }
export { exportBest as export };

/// GET /api/image: the session's image ({image: {type, width, height, scale, bytes} or null}).
export function image() { return call("GET", "/api/image"); }
/// PUT /api/image?scale=S: `file` (a PNG or JPEG Blob) as the session's image, S image pixels per pt.
export function setImage(file, scale) { return call("PUT", "/api/image?scale=" + scale, file, file.type || "application/octet-stream"); }
/// DELETE /api/image: no image.
export function removeImage() { return call("DELETE", "/api/image"); }
/// GET /api/image/file: the session's image as a Blob.
export function imageFile() { return file("/api/image/file", (r) => r.blob()); }

/// The address of GET /api/recordings.csv for a link (`<a download>`), the token in the query.
export function recordingsCSVLink() { return "/api/recordings.csv?token=" + encodeURIComponent(token); }

/// The address of the live socket (operation `live`, GET /api/live: Server/LiveSocket.swift), the token in the query.
export function liveURL() {
  return (location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/api/live?token=" + encodeURIComponent(token);
}

/// Opens the live socket (operation `live`): its messages are LiveMessage out, LiveFrames and LiveDone in.
export function live() { return new WebSocket(liveURL()); }
