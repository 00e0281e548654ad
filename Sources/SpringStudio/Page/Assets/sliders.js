// The sliders' mapping (Reference §10.16): a free parameter's control position <-> its value.
// A number axis (`{min, max, log}`) is a range input of SLIDER_STEPS + 1 positions, linear, or
// in log space on a log axis; a word axis (`{words}`) is a select whose value is the word.
// Pure functions, unit-tested under node (Tests/page/sliders.test.mjs).

/// A number slider's positions: 0 to SLIDER_STEPS.
export const SLIDER_STEPS = 1000;

/// The value at slider position `s` (0..SLIDER_STEPS) of a number axis, to 6 significant digits,
/// kept inside [min, max].
export function toValue(axis, s) {
  const f = s / SLIDER_STEPS;
  const v = axis.log ? Math.exp(Math.log(axis.min) + f * (Math.log(axis.max) - Math.log(axis.min)))
                     : axis.min + f * (axis.max - axis.min);
  return Math.min(axis.max, Math.max(axis.min, Number(v.toPrecision(6))));
}

/// The slider position (0..SLIDER_STEPS, rounded) nearest to value `v` of a number axis; 0 on an
/// axis of one value.
export function toSlider(axis, v) {
  if (axis.max === axis.min) return 0;
  const f = axis.log ? (Math.log(v) - Math.log(axis.min)) / (Math.log(axis.max) - Math.log(axis.min))
                     : (v - axis.min) / (axis.max - axis.min);
  return Math.round(f * SLIDER_STEPS);
}

/// The parameter's value of the control's `value` (a string, as an input gives it): the word
/// itself on a word axis, else toValue of the position.
export function controlToValue(axis, value) { return axis.words ? value : toValue(axis, Number(value)); }

/// What the control shows for value `v`: the word on a word axis, else the slider position.
export function valueToControl(axis, v) { return axis.words ? v : toSlider(axis, v); }
