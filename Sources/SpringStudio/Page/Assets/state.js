// The page's shared state (Reference §10.16), one explicit object that the page's modules import
// instead of sharing global names: studio.js (the entry) sets it up, learn.js, levers.js and
// live.js read it and change it through their functions.

/// `preset`: GET /api/preset's answer (replaced when the levers change); `panels`: the candidate
/// panels shown, each {params, name (its title when not "candidate N"), replay, engine (what the engine module starts with, and the params it was answered for), row, seq, timer, el, canvas, magnifier, values, metrics,
/// objective, title}; `selected`: the index of the panel the sliders edit.
export const state = { preset: null, panels: [], selected: 0 };

/// The one clock every panel plays on: page time `t` (s), playing or paused, the speed, and the
/// last animation frame's time (ms, null before the first).
export const clock = { t: 0, playing: true, speed: 1, last: null };
