// The page's small DOM helpers (Reference §10.16): an element by id, a button, the one error line.

/// The element with id `id`.
export const $ = (id) => document.getElementById(id);

/// A `<button type="button">` with `text` and class `className`.
export function button(text, className) {
  const b = document.createElement("button");
  Object.assign(b, { type: "button", textContent: text, className });
  return b;
}

/// `message` in #error, shown by `from` ("replay", "learn", "live" or "start"); an empty message
/// clears only an error the same `from` showed, so a replay arriving does not hide a refused answer.
let errorFrom = null;
export function showError(message, from) {
  if (!message && errorFrom !== from) return;
  errorFrom = message ? from : null;
  $("error").textContent = message;
  $("error").hidden = !message;
}
