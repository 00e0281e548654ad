#!/usr/bin/env python3
"""A straightforward vectorised NumPy implementation of springtune's `flow-layout` sweep.

Benchmark companion of `springtune sweep --preset evernote` (see bench/README.md). It reads a
flow-layout preset (its `sweep` axes define the grid), the bundled default traces, replays every
trace through the model for every parameter set (Reference §5, §7, §7.1), computes the per-trace
metrics of Reference §8 and their per-set aggregates, and writes a report CSV with springtune's
columns (Reference §9.2).

Vectorisation: the scroll motion does not depend on the row springs, so it is computed once per
trace in plain Python (scalar, as springtune does). The rows are then simulated with NumPy
arrays of shape (traces, rows, parameter sets), in blocks of --block sets, with a Python loop
over frames. Traces are aligned on their release frame (a trace with fewer touching frames
starts later), so every trace releases on the same global frame and ends on the same last
frame; the traces that have started form a prefix of the (release-frame-sorted) trace axis.

Every scalar that uses a transcendental function (exp, cos, sin, cosh, sinh, log, pow) is
computed with Python's `math` (the C library, like Swift on Linux); NumPy only does + - * /,
abs, min/max and comparisons, which are exactly rounded, so the numbers agree with springtune
bit for bit when the operations are done in the same order (they are, below).

Only the Python standard library and NumPy are used.
"""

import argparse
import csv
import json
import math
import os
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
TRACE_ROOT = os.path.join(REPO, "Sources", "SpringTune", "Resources", "Traces")

# ---------------------------------------------------------------------------------------------
# Preset and grid
# ---------------------------------------------------------------------------------------------

# FlowLayout.parameters (Sources/SpringLayout/Models/FlowLayout.swift) with their defaults.
DEFAULT_PARAMS = {
    "frequency": 1.0,
    "damping": 1.0,
    "boundaryResistance": 10.0,
    "scrollResistance": 0.0,
    "itemCount": 30.0,
    "itemHeight": 44.0,
    "itemSpacing": 10.0,
    "initialOffset": "auto",
    "rubberBand": 0.55,
    "decelerationRate": 0.998,
    "bounceStiffness": 100.0,
    "bounceDampingRatio": 1.0,
}
DEFAULT_SCENE = {"width": 390.0, "height": 844.0, "frameRate": 120.0, "tolerance": 0.5, "tail": 5.0,
                 "estimator": "lsq2"}
SCENE_SWEEPABLE = ("frameRate", "width", "height", "tail")
# Parameters that vary per set inside one vectorised run; any other swept name splits the grid
# into groups that share a scroll motion (springtune's PreparationKey).
VECTOR_PARAMS = ("frequency", "damping", "boundaryResistance", "scrollResistance")

METRICS = ["overshoot_pt", "overshoot_ratio", "settle_time", "jiggle_time", "peak_stretch_pt", "max_lag_pt"]

# The noise floor (Reference §8.1, MetricValue.floor): a report value (pt, s, pt/s, a ratio) whose size
# is below it is 0, and a per-trace overshoot_pt below it (pt) is 0 before its ratio is taken.
NOISE_FLOOR = 1e-6


def typed(x):
    """NumberFormat.typed: x rounded to 12 significant digits (C's %.12g read back), so a grid
    value or a report value is the decimal a person would type; inf and NaN unchanged."""
    return float("%.12g" % x) if math.isfinite(x) else x


def measured(x):
    """MetricValue(measured:): a report value as springtune keeps it: 0 below NOISE_FLOOR in
    size, else typed(x); NaN (undefined) and inf (never settled) unchanged."""
    return 0.0 if abs(x) < NOISE_FLOOR else typed(x)


def axis_values(axis):
    """SweepAxis values: explicit, or from/to/steps with linear or log spacing (Preset.swift),
    each computed value typed (Reference §9.1 "Range spacing") and the last exactly `to`."""
    if "values" in axis:
        return [float(v) if isinstance(v, (int, float)) else v for v in axis["values"]]
    frm, to, steps = float(axis["from"]), float(axis["to"]), int(axis["steps"])
    log = axis.get("spacing", "linear") == "log"
    out = []
    for i in range(steps):
        if steps == 1:
            out.append(frm)
            continue
        u = i / (steps - 1)
        if i == steps - 1:
            out.append(to)
        else:
            out.append(typed(frm * math.pow(to / frm, u) if log else frm + (to - frm) * u))
    return out


def spring_from_block(block):
    """The preset's `spring` block as canonical (frequency, damping)."""
    if "frequency" in block and "damping" in block:
        return float(block["frequency"]), float(block["damping"])
    if "response" in block and "dampingRatio" in block:
        return 1 / float(block["response"]), float(block["dampingRatio"])
    if "duration" in block and "bounce" in block:
        b = float(block["bounce"])
        return 1 / float(block["duration"]), (1 - b if b >= 0 else 1 / (1 + b))
    raise SystemExit("preset spring block: need frequency+damping, response+dampingRatio or duration+bounce")


def load_preset(path):
    with open(path) as f:
        preset = json.load(f)
    if preset.get("model") != "flow-layout":
        raise SystemExit(f"{path}: model is {preset.get('model')!r}, this script runs flow-layout only")
    params = dict(DEFAULT_PARAMS)
    for k, v in preset.get("params", {}).items():
        params[k] = float(v) if isinstance(v, (int, float)) else v
    params["frequency"], params["damping"] = spring_from_block(preset.get("spring", {}))
    scene = dict(DEFAULT_SCENE)
    scene.update(preset.get("scene", {}))
    axes = [(a["name"], axis_values(a), a) for a in preset.get("sweep", [])]
    return preset, params, scene, axes


def vary_axis(text):
    """An axis from `springtune sweep --vary` text (SweepGrid.parseVary): NAME=FROM:TO:STEPS[:log]
    or NAME=v1,v2,… (numbers, or words), as (name, values, spec) like load_preset's axes."""
    name, eq, spec = text.partition("=")
    if not name or not eq:
        raise SystemExit(f"--vary {text}: expected NAME=VALUES")
    if ":" in spec:
        parts = spec.split(":")
        if len(parts) not in (3, 4) or parts[3:] not in ([], ["log"], ["linear"]):
            raise SystemExit(f"--vary {text}: expected NAME=FROM:TO:STEPS[:log]")
        axis = {"name": name, "from": float(parts[0]), "to": float(parts[1]), "steps": int(parts[2]),
                "spacing": parts[3] if len(parts) == 4 else "linear"}
    else:
        axis = {"name": name, "values": [param_value(v) for v in spec.split(",")]}
    return name, axis_values(axis), axis


def param_value(text):
    """ParamValue(parsing:): a number when the text is one, else the word."""
    try:
        return float(text)
    except ValueError:
        return text


def apply_vary(axes, texts):
    """SweepGrid.make's --vary: each axis replaces the preset's axis of that name, else is appended."""
    out = list(axes)
    for axis in map(vary_axis, texts):
        names = [a[0] for a in out]
        if axis[0] in names:
            out[names.index(axis[0])] = axis
        else:
            out.append(axis)
    return out


def refine_axes(axes, n_sets):
    """Synthetic larger grid: the preset's grid with its last from/to/steps axis re-sampled with
    ceil(N / product of the other axes' sizes) steps (same from, to and spacing), so the grid
    has at least N sets. For evernote and N = 2000 that is frequency 0.5…4 log with 42 steps:
    6·8·42 = 2016 sets, the same grid as `springtune sweep --vary frequency=0.5:4:42:log`."""
    idx = max((i for i, a in enumerate(axes) if "from" in a[2]), default=None)
    if idx is None:
        raise SystemExit("--sets needs a from/to/steps axis in the preset's sweep")
    others = 1
    for i, a in enumerate(axes):
        if i != idx:
            others *= len(a[1])
    steps = max(1, -(-n_sets // others))
    spec = dict(axes[idx][2], steps=steps)
    out = list(axes)
    out[idx] = (axes[idx][0], axis_values(spec), spec)
    return out


def grid_sets(params, axes):
    """Every parameter set in grid order (first axis slowest), as full parameter dicts."""
    sizes = [len(a[1]) for a in axes]
    total = 1
    for s in sizes:
        total *= s
    sets = []
    for cid in range(total):
        v = dict(params)
        rest = cid
        for name, values, _ in reversed(axes):
            v[name] = values[rest % len(values)]
            rest //= len(values)
        sets.append(v)
    return sets


# ---------------------------------------------------------------------------------------------
# Traces (Reference §3)
# ---------------------------------------------------------------------------------------------

PHASES = {"began": "began", "down": "began", "moved": "moved", "move": "moved",
          "ended": "ended", "up": "ended", "cancelled": "cancelled"}


class Trace:
    __slots__ = ("id", "intent", "t", "x", "y", "phase", "pointer")

    def __init__(self, tid, intent):
        self.id, self.intent = tid, intent
        self.t, self.x, self.y, self.phase, self.pointer = [], [], [], [], []


def read_traces(paths):
    traces = []
    for path in paths:
        with open(path, newline="", encoding="utf-8") as f:
            reader = csv.DictReader(f)
            for col in ("trace", "t", "x", "y", "phase"):
                if col not in reader.fieldnames:
                    raise SystemExit(f"{path}: missing column {col}")
            current = None
            for row in reader:
                if current is None or current.id != row["trace"]:
                    current = Trace(row["trace"], (row.get("intent") or "") or None)
                    traces.append(current)
                current.t.append(float(row["t"]))
                current.x.append(float(row["x"]))
                current.y.append(float(row["y"]))
                current.phase.append(PHASES[row["phase"]])
                current.pointer.append(int(row.get("pointer") or 0))
    # Single-pointer model: the pointer that began first (Trace.firstPointer).
    for tr in traces:
        if any(p != tr.pointer[0] for p in tr.pointer):
            keep = [i for i, p in enumerate(tr.pointer) if p == tr.pointer[0]]
            for attr in ("t", "x", "y", "phase", "pointer"):
                setattr(tr, attr, [getattr(tr, attr)[i] for i in keep])
    return traces


def trace_files(preset, traces_arg):
    if not traces_arg:
        return [os.path.join(TRACE_ROOT, p) for p in preset["traces"]]
    out = []
    for p in traces_arg:
        if os.path.isdir(p):
            out += sorted(os.path.join(p, f) for f in os.listdir(p) if f.endswith(".csv"))
        else:
            out.append(p)
    return out


# ---------------------------------------------------------------------------------------------
# Release velocity (Reference §4; VelocityEstimator.swift), scalar Python
# ---------------------------------------------------------------------------------------------

WINDOW_COUNT, HORIZON, MAX_GAP = 20, 0.100, 0.040


def position_samples(tr):
    n = len(tr.t) - 1 if tr.phase and tr.phase[-1] in ("ended", "cancelled") else len(tr.t)
    return list(zip(tr.t[:n], tr.x[:n], tr.y[:n]))


def velocity_window(s):
    if not s:
        return s
    latest = s[-1]
    start = len(s) - 1
    while start > 0 and len(s) - start < WINDOW_COUNT:
        older = s[start - 1]
        if not (latest[0] - older[0] <= HORIZON + 1e-12 and s[start][0] - older[0] <= MAX_GAP + 1e-12):
            break
        start -= 1
    return s[start:]


def solve3(a, b):
    m = [row[:] for row in a]
    r = b[:]
    scale = max(abs(v) for row in a for v in row)
    for col in range(3):
        pivot = col
        for row in range(col + 1, 3):
            if abs(m[pivot][col]) < abs(m[row][col]):
                pivot = row
        if not abs(m[pivot][col]) > 1e-13 * scale:
            return None
        m[col], m[pivot] = m[pivot], m[col]
        r[col], r[pivot] = r[pivot], r[col]
        for row in range(col + 1, 3):
            f = m[row][col] / m[col][col]
            for k in range(col, 3):
                m[row][k] -= f * m[col][k]
            r[row] -= f * r[col]
    x = [0.0, 0.0, 0.0]
    for row in (2, 1, 0):
        acc = r[row]
        for k in range(row + 1, 3):
            acc -= m[row][k] * x[k]
        x[row] = acc / m[row][row]
    return x


def lsq2(w, j):
    if len(w) < 2:
        return 0.0
    latest = w[-1]
    if len(w) == 2:
        dt = latest[0] - w[0][0]
        return (latest[j] - w[0][j]) / dt if dt > 0 else 0.0
    s = [0.0] * 5
    r = [0.0, 0.0, 0.0]
    for p in w:
        tau, v = p[0] - latest[0], p[j]
        power = 1.0
        for k in range(5):
            s[k] += power
            if k < 3:
                r[k] += power * v
            power *= tau
    b = solve3([[s[0], s[1], s[2]], [s[1], s[2], s[3]], [s[2], s[3], s[4]]], r)
    if b is not None:
        return b[1]
    det = s[0] * s[2] - s[1] * s[1]
    return (s[0] * r[1] - s[1] * r[0]) / det if det > 1e-18 * s[0] * s[2] else 0.0


def impulse(w, j):
    n = len(w)
    if n < 2:
        return 0.0
    if n == 2:
        dt = w[1][0] - w[0][0]
        return 0.0 if dt == 0 else (w[1][j] - w[0][j]) / dt

    def from_work(work):
        return (-1.0 if work < 0 else 1.0) * math.sqrt(abs(work)) * math.sqrt(2.0)

    work = 0.0
    for i in range(1, n):
        dt = w[i][0] - w[i - 1][0]
        if dt == 0:
            continue
        v_prev = from_work(work)
        v_curr = (w[i][j] - w[i - 1][j]) / dt
        work += (v_curr - v_prev) * abs(v_curr)
        if i == 1:
            work *= 0.5
    return from_work(work)


def distinct_times(w):
    out = []
    for p in w:
        if out and out[-1][0] == p[0]:
            out[-1] = p
        else:
            out.append(p)
    return out


def pair_velocity(a, b):
    dt = b[0] - a[0]
    return ((b[1] - a[1]) / dt, (b[2] - a[2]) / dt)


def last_pair(w):
    d = distinct_times(w)
    return pair_velocity(d[-2], d[-1]) if len(d) >= 2 else (0.0, 0.0)


def ios(w):
    d = distinct_times(w)
    if len(d) < 4:
        return last_pair(w)
    v2, v1, v0 = pair_velocity(d[-4], d[-3]), pair_velocity(d[-3], d[-2]), pair_velocity(d[-2], d[-1])
    return (0.6 * v2[0] + 0.35 * v1[0] + 0.05 * v0[0], 0.6 * v2[1] + 0.35 * v1[1] + 0.05 * v0[1])


def release_velocity(tr, estimator):
    pos = position_samples(tr)
    if not pos:
        return (0.0, 0.0)
    lift = tr.t[-1] if tr.phase[-1] in ("ended", "cancelled") else None
    if lift is not None and lift - pos[-1][0] > MAX_GAP:
        return (0.0, 0.0)
    w = velocity_window(pos)
    if estimator == "lsq2":
        return (lsq2(w, 1), lsq2(w, 2))
    if estimator == "impulse":
        return (impulse(w, 1), impulse(w, 2))
    if estimator == "ios":
        return ios(w)
    if estimator == "last":
        return last_pair(w)
    raise SystemExit(f"unknown estimator {estimator}")


# ---------------------------------------------------------------------------------------------
# Springs (Reference §2; SpringStep.swift, SpringMotion.swift), scalar Python
# ---------------------------------------------------------------------------------------------

def omega(frequency):
    return 2 * math.pi * frequency


def damped_basis(w, z, t):
    q = w * w * (1 - z) * (1 + z)
    decay = -z * w * t
    if q > 0:
        wd = math.sqrt(q)
        e = math.exp(decay)
        return e * math.cos(wd * t), e * math.sin(wd * t) / wd
    if q == 0:
        e = math.exp(decay)
        return e, e * t
    a = math.sqrt(-q)
    if a * t < 1:
        e = math.exp(decay)
        return e * math.cosh(a * t), e * math.sinh(a * t) / a
    slow, fast = math.exp(decay + a * t), math.exp(decay - a * t)
    return 0.5 * (slow + fast), 0.5 * (slow - fast) / a


def spring_step(w, z, t):
    """(xx, xv, vx, vv): x' = xx·x + xv·v, v' = vx·x + vv·v."""
    eC, eS = damped_basis(w, z, t)
    return eC + z * w * eS, eS, -w * w * eS, eC - z * w * eS


def spring_state(w, z, x0, v0, t):
    xx, xv, vx, vv = spring_step(w, z, t)
    return xx * x0 + xv * v0, vx * x0 + vv * v0


def bisect(lo, hi, is_before):
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if mid <= lo or mid >= hi:
            break
        if is_before(mid):
            lo = mid
        else:
            hi = mid
    return hi


def first_zero_crossing(w, z, x0, v0):
    """SpringMotion.firstZeroCrossing for ζ ≥ 1 (the bounce spring; ratios below 1 are rejected)."""
    if x0 == 0:
        return None
    if z < 1:
        raise SystemExit("bounceDampingRatio must be >= 1")
    slow = v0 + (z + math.sqrt(z * z - 1)) * w * x0
    if not slow * x0 < 0:
        return None
    hi = 1 / w
    while spring_state(w, z, x0, v0, hi)[0] * x0 > 0:
        hi *= 2
    return bisect(0.0, hi, lambda t: spring_state(w, z, x0, v0, t)[0] * x0 > 0)


# ---------------------------------------------------------------------------------------------
# Scroll view (Reference §5; ScrollView.swift), scalar Python
# ---------------------------------------------------------------------------------------------

class ScrollView:
    def __init__(self, content, viewport, rubber, rate, bounce_k, bounce_ratio):
        self.C, self.V, self.c, self.r = content, viewport, rubber, rate
        self.M = max(0.0, content - viewport)
        self.lam = -1000 * math.log(rate)
        # SpringParameters(stiffness: k, dampingCoefficient: 2·ratio·√k), then ω = 2πf.
        dc = 2 * bounce_ratio * math.sqrt(bounce_k)
        f = math.sqrt(bounce_k / 1) / (2 * math.pi)
        self.bz = dc / (2 * math.sqrt(bounce_k * 1))
        self.bw = omega(f)
        if self.bz < 1:
            raise SystemExit("bounce damping ratio must be >= 1")

    def rubber_banded(self, x):
        return x * self.V * self.c / (self.V + self.c * x)

    def un_rubber_banded(self, r):
        return r * self.V / (self.c * (self.V - r))

    def past_edges(self, x, f):
        """x inside [0, M]; past an edge by e, the edge moved by f(e) outwards."""
        if x < 0:
            return -f(-x)
        if x > self.M:
            return self.M + f(x - self.M)
        return x

    def displayed(self, raw):
        return self.past_edges(raw, self.rubber_banded)

    def raw(self, o):
        return self.past_edges(o, self.un_rubber_banded)


class ScrollRelease:
    """Hybrid release motion: phases (kind, start, offset, velocity, edge) and the rest offset."""

    def __init__(self, view, offset, velocity):
        self.view = view
        self.phases = []
        m, lam = view.M, view.lam
        start, o, u = 0.0, offset, velocity
        for _ in range(16):
            if o < 0 or o > m or (o == 0 and u < 0) or (o == m and u > 0):
                edge = 0.0 if (o < 0 or (o == 0 and u < 0)) else m
                self.phases.append(("bounce", start, o, u, edge))
                tc = first_zero_crossing(view.bw, view.bz, o - edge, u) if o != edge else None
                if tc is None:
                    self.rest = edge
                    return
                start += tc
                x0 = o - edge
                o = edge
                u = spring_state(view.bw, view.bz, x0, u, tc)[1]
                continue
            self.phases.append(("decel", start, o, u, 0.0))
            end = o + u / lam
            edge = 0.0 if end < 0 else (m if end > m else None)
            if edge is None:
                self.rest = end
                return
            tau = -math.log(1 - lam * (edge - o) / u) / lam
            start += tau
            u *= math.exp(-lam * tau)
            o = edge
        self.rest = o

    def offset(self, tau):
        phase = self.phases[0]
        for ph in self.phases:
            if ph[1] <= tau:
                phase = ph
        kind, start, o, u, edge = phase
        dt = max(0.0, tau - start)
        if kind == "decel":
            lam = self.view.lam
            decay = math.exp(-lam * dt)
            return o + u / lam * (1 - decay)
        return edge + spring_state(self.view.bw, self.view.bz, o - edge, u, dt)[0]


# ---------------------------------------------------------------------------------------------
# Frame clock and per-trace preparation (Reference §7; Scene.swift FrameClock, FlowLayoutMeasure)
# ---------------------------------------------------------------------------------------------

SLACK = 1e-9


def release_frame(tr, F):
    t0, lift = tr.t[0], tr.t[-1]
    k = max(0, int(math.floor((lift - t0) * F)) - 1)
    while t0 + k / F + SLACK < lift:
        k += 1
    while k > 0 and t0 + (k - 1) / F + SLACK >= lift:
        k -= 1
    return k


def prepare(tr, g):
    """Scroll offsets and finger screen y for frames 0…last, the release frame, the rest offset."""
    F = g["F"]
    view = g["view"]
    t0 = tr.t[0]
    r = release_frame(tr, F)
    last = r + g["tail_frames"]
    io = g["initialOffset"]
    if io == "top":
        o0 = 0.0
    elif io == "bottom":
        o0 = view.M
    elif io == "middle":
        o0 = view.M / 2
    elif io == "auto":
        pos = position_samples(tr)
        net = (pos[-1][2] if pos else 0.0) - (pos[0][2] if pos else 0.0)
        o0 = 0.0 if net >= 0 else view.M
    else:
        o0 = float(io)
    raw0, y0 = view.raw(o0), tr.y[0]
    offsets, touch = [], []
    i = 0
    for k in range(r + 1):
        tk = t0 + k / F + SLACK
        while i + 1 < len(tr.t) and tr.t[i + 1] <= tk:
            i += 1
        y = tr.y[i]
        offsets.append(view.displayed(raw0 - (y - y0)))
        touch.append(y)
    lift_y = touch[r]
    vy = release_velocity(tr, g["estimator"])[1]
    rel = ScrollRelease(view, view.displayed(raw0 - (lift_y - y0)), -vy)
    tr_time = t0 + r / F
    for k in range(r + 1, last + 1):
        offsets.append(rel.offset((t0 + k / F) - tr_time))
        touch.append(lift_y)
    return r, offsets, touch, rel.rest


# ---------------------------------------------------------------------------------------------
# The vectorised engine (Reference §7.1, §8; FlowLayout.swift FlowLayoutEngine, FlowLayoutMeasure.run)
# ---------------------------------------------------------------------------------------------

def run_group(preps, g, sets):
    """Per-trace metrics, arrays of shape (traces, sets) (NaN = undefined, inf = unsettled),
    for the prepared traces `preps` (see `prepare`) and parameter sets sharing them.

    State arrays have shape (traces, rows, sets): the per-frame reductions over rows then run
    along a middle axis, with the sets contiguous (much faster in NumPy than reducing a short
    last axis)."""
    n, h, sp = g["n"], g["h"], g["s"]
    F, tail_frames, eps = g["F"], g["tail_frames"], g["eps"]
    view = g["view"]
    M = view.M
    S, T = len(sets), len(preps)
    pitch = h + sp
    top_edge, bottom_edge = -100.0 - h / 2, g["height"] + 100 + h / 2
    c = np.array([h / 2 + i * (h + sp) for i in range(n)])
    c3 = c[None, :, None]

    # Per-set constants: the exact spring step over 1/F (scalar math, then broadcast).
    dt = 1 / F
    coef = np.array([spring_step(omega(p["frequency"]), p["damping"], dt) for p in sets])  # (S, 4)
    XX, XV, VX, VV = (coef[:, j].reshape(1, 1, S).copy() for j in range(4))
    br = np.array([p["boundaryResistance"] for p in sets], dtype=float)
    sr = np.array([p["scrollResistance"] for p in sets], dtype=float)
    stretch, lag = br > 0, sr > 0
    br_safe = np.where(stretch, br, 1.0)
    sr_safe = np.where(lag, sr, 1.0).reshape(1, 1, S)
    any_lag = bool(lag.any())
    lag3 = lag.reshape(1, 1, S)

    # Per-trace scroll motion, aligned on the release frame.
    rel = [p[0] for p in preps]
    order = sorted(range(T), key=lambda t: -rel[t])          # largest release frame first
    R = max(rel)
    G = R + tail_frames + 1                                  # global frames 0…R+tail
    start = np.array([R - rel[t] for t in order])
    O = np.full((T, G), np.nan)
    TOUCH = np.full((T, G), np.nan)
    for j, t in enumerate(order):
        O[j, start[j]:] = preps[t][1]
        TOUCH[j, start[j]:] = preps[t][2]
    rest = np.array([preps[t][3] for t in order])
    FS = (c[None, :] - rest[:, None])[:, :, None]           # final screen y: cᵢ − rest offset, (T, n, 1)
    # Offset change split (per trace and frame; column gf is the change from gf−1 to gf).
    Oc = np.minimum(np.maximum(O, 0.0), M)
    DIN = np.full((T, G), np.nan)
    DPIN = np.full((T, G), np.nan)
    DIN[:, 1:] = Oc[:, 1:] - Oc[:, :-1]
    DPIN[:, 1:] = (O[:, 1:] - O[:, :-1]) - DIN[:, 1:]
    TOP, BOT = O < 0, O > M
    DELTA = np.where(TOP, -O, np.where(BOT, O - M, 0.0))
    W_TOP = np.arange(1, n + 1, dtype=float)                 # i + 1
    W_BOT = np.arange(n, 0, -1, dtype=float)                 # n − i

    # State and accumulators.
    shape = (T, n, S)
    P, V, A = np.zeros(shape), np.zeros(shape), np.zeros(shape)
    X, TMP, Y, D = np.empty(shape), np.empty(shape), np.empty(shape), np.empty(shape)
    GAP = np.empty((T, n - 1, S))
    VIS, B1 = np.empty(shape, dtype=bool), np.empty(shape, dtype=bool)
    BOTH = np.empty((T, n - 1, S), dtype=bool)
    PEAK = np.zeros(shape)                                   # max of −sgn(dᵢ(t_r))·dᵢ over counted frames
    COUNTED = np.zeros(shape, dtype=bool)
    D0 = np.zeros(shape)
    SGN = np.ones(shape)
    peak_stretch = np.full((T, S), -np.inf)
    max_lag = np.zeros((T, S))
    last_out = np.full((T, S), -1, dtype=np.int64)
    last_jig = np.full((T, S), -1, dtype=np.int64)

    def anchors(out, rows, gf):
        """aᵢ for the traces `rows` (a slice) at global frame gf, as (cᵢ + gs·Wᵢ) + dd with
        top: gs = g, W = i+1, dd = −δ; bottom: gs = −g, W = n−i, dd = +δ; otherwise gs = dd = 0
        (exactly cᵢ + g(i+1) − δ, cᵢ − g(n−i) + δ and cᵢ, as FlowLayout.anchors rounds them)."""
        delta = DELTA[rows, gf]
        top = TOP[rows, gf]
        past = top | BOT[rows, gf]
        on = stretch[None, :] & past[:, None]                # (m, S)
        gg = delta[:, None] / br_safe[None, :]
        gs = np.where(on, np.where(top[:, None], gg, -gg), 0.0)
        dd = np.where(on, np.where(top, -delta, delta)[:, None], 0.0)
        W = np.where(top[:, None], W_TOP[None, :], W_BOT[None, :])
        np.multiply(gs[:, None, :], W[:, :, None], out=out)
        out += c3
        out += dd[:, None, :]

    m_prev = 0
    for gf in range(G):
        m = int(np.searchsorted(start, gf, side="right"))   # traces started by this frame
        if m_prev:
            a = slice(0, m_prev)
            p, v, an, x, tmp = P[a], V[a], A[a], X[a], TMP[a]
            # (1) springs step 1/F toward the previous frame's anchors: p = a + xx·x + xv·v.
            np.subtract(p, an, out=x)
            np.multiply(XX, x, out=tmp)
            np.add(an, tmp, out=p)
            np.multiply(XV, v, out=tmp)
            p += tmp
            np.multiply(VX, x, out=tmp)                      # v = vx·x + vv·v
            v *= VV
            v += tmp
            # (2)–(3) the scroll view's new offset sets the anchors.
            anchors(an, a, gf)
            # (4) carry: the overscrolled part pins the rows (stretch), scroll lag.
            carry = np.where(stretch[None, :], DPIN[a, gf][:, None], 0.0)[:, None, :]
            if any_lag:
                din = DIN[a, gf][:, None, None]
                touch = (TOUCH[a, gf] + O[a, gf])[:, None, None]
                np.subtract(touch, p, out=tmp)
                np.abs(tmp, out=tmp)
                tmp /= sr_safe
                np.minimum(tmp, 1.0, out=tmp)
                tmp *= din
                p += carry + np.where(lag3, tmp, 0.0)
            else:
                p += carry
        if m > m_prev:                                        # frame 0 of the traces starting now
            a = slice(m_prev, m)
            anchors(A[a], a, gf)
            P[a] = A[a]
            V[a] = 0.0
        m_prev = m

        # Metrics of this frame over the started traces.
        a = slice(0, m)
        p, an, y, vis, b1, tmp = P[a], A[a], Y[a], VIS[a], B1[a], TMP[a]
        np.subtract(p, O[a, gf][:, None, None], out=y)       # screen y
        np.greater_equal(y, top_edge, out=vis)               # row counts: meets the grown viewport
        np.less_equal(y, bottom_edge, out=b1)
        vis &= b1
        both, gap = BOTH[a], GAP[a]
        np.logical_and(vis[:, 1:], vis[:, :-1], out=both)
        np.subtract(p[:, 1:], p[:, :-1], out=gap)
        gap -= pitch
        np.maximum(peak_stretch[a], np.where(both, gap, -np.inf).max(axis=1), out=peak_stretch[a])
        np.subtract(p, an, out=tmp)                          # |spring extension pᵢ − aᵢ|
        np.abs(tmp, out=tmp)
        tmp *= vis                                           # 0 for rows that do not count
        if gf < R:                                           # touching (every started trace)
            np.maximum(max_lag[a], tmp.max(axis=1), out=max_lag[a])
            continue
        last_jig[tmp.max(axis=1) > eps] = gf
        np.subtract(y, FS, out=D)                            # dᵢ: screen y − final screen y
        if gf == R:                                          # release frame: dᵢ(t_r) for every row
            D0[...] = D
            SGN[...] = np.where(D > 0, -1.0, 1.0)
        COUNTED |= vis
        np.multiply(D, SGN, out=tmp)
        tmp *= vis
        np.maximum(PEAK, tmp, out=PEAK)
        np.abs(D, out=D)
        D *= vis
        last_out[D.max(axis=1) > eps] = gf

    # Per-trace metrics (release frame R and last frame G−1 in global numbering).
    last = G - 1

    def settle(lo):
        t = (lo + 1 - R).astype(float) / F
        return np.where(lo < 0, 0.0, np.where(lo >= last, np.inf, t))

    absd0 = np.abs(D0)
    pt = np.where(COUNTED & (absd0 >= eps), PEAK, 0.0).max(axis=1)
    pt = np.where(pt < NOISE_FLOOR, 0.0, pt)                 # OvershootTracker.result: floored before the ratio
    largest = np.where(COUNTED, absd0, 0.0).max(axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = np.where(largest >= 1, pt / largest, np.nan)
    res = {
        "overshoot_pt": pt,
        "overshoot_ratio": ratio,
        "settle_time": settle(last_out),
        "jiggle_time": settle(last_jig),
        "peak_stretch_pt": np.where(np.isfinite(peak_stretch), peak_stretch, np.nan),
        "max_lag_pt": max_lag,
    }
    inv = np.empty(T, dtype=int)
    inv[order] = np.arange(T)
    return {k: v[inv] for k, v in res.items()}


def group_key(p, scene):
    sc = dict(scene)
    for k in SCENE_SWEEPABLE:
        if k in p:
            sc[k] = p[k]
    key = tuple((k, p[k]) for k in sorted(p) if k not in VECTOR_PARAMS and k not in SCENE_SWEEPABLE)
    return key + tuple((k, sc[k]) for k in ("width", "height", "frameRate", "tolerance", "tail", "estimator"))


def group_constants(p, scene):
    sc = dict(scene)
    for k in SCENE_SWEEPABLE:
        if k in p:
            sc[k] = float(p[k])
    n = int(p["itemCount"])
    h, s = float(p["itemHeight"]), float(p["itemSpacing"])
    content = n * h + (n - 1) * s
    view = ScrollView(content, float(sc["height"]), float(p["rubberBand"]), float(p["decelerationRate"]),
                      float(p["bounceStiffness"]), float(p["bounceDampingRatio"]))
    F = float(sc["frameRate"])
    return {"n": n, "h": h, "s": s, "F": F, "tail_frames": int(round_half_away(float(sc["tail"]) * F)),
            "eps": float(sc["tolerance"]), "height": float(sc["height"]), "view": view,
            "initialOffset": p["initialOffset"], "estimator": sc["estimator"]}


def round_half_away(x):
    """Swift's .rounded() (to nearest, ties away from zero)."""
    return math.floor(x + 0.5) if x >= 0 else -math.floor(-x + 0.5)


def run_sweep(sets, scene, traces, block=128):
    """Groups the sets by what the scroll motion depends on, prepares each trace once per group
    (scalar Python), then runs the rows vectorised over blocks of at most `block` sets (so the
    (traces, rows, sets) arrays stay near cache size: 30 × 30 × 128 doubles ≈ 0.9 MB)."""
    per = {k: np.full((len(traces), len(sets)), np.nan) for k in METRICS}
    groups = {}
    for i, p in enumerate(sets):
        groups.setdefault(group_key(p, scene), []).append(i)
    for ids in groups.values():
        g = group_constants(sets[ids[0]], scene)
        preps = [prepare(tr, g) for tr in traces]
        for b in range(0, len(ids), block):
            part = ids[b:b + block]
            res = run_group(preps, g, [sets[i] for i in part])
            for k in METRICS:
                per[k][:, part] = res[k]
    return per


# ---------------------------------------------------------------------------------------------
# Aggregates (Reference §8; SweepRunner.swift Aggregate.summary) and CSV
# ---------------------------------------------------------------------------------------------

def summarise(vals):
    """vals (T, S), NaN = undefined: mean over finite values (in trace order), nearest-rank p95
    and max over defined values (inf included)."""
    T, S = vals.shape
    defined = ~np.isnan(vals)
    finite = np.isfinite(vals)
    acc = np.zeros(S)
    for t in range(T):                                       # sequential, like reduce(0, +)
        acc = np.where(finite[t], acc + np.where(finite[t], vals[t], 0.0), acc)
    nf = finite.sum(axis=0)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = np.where(nf > 0, acc / nf, np.nan)
    srt = np.sort(vals, axis=0)                              # NaN sorts last
    nd = defined.sum(axis=0)
    rank = np.ceil(0.95 * nd).astype(int)
    idx = np.maximum(rank, 1) - 1
    cols = np.arange(S)
    p95 = np.where(nd > 0, srt[np.minimum(idx, T - 1), cols], np.nan)
    mx = np.where(nd > 0, srt[np.maximum(nd - 1, 0), cols], np.nan)
    return mean, p95, mx


def fmt(d):
    """CSVWriter.formatNumber: shortest round trip, integers without '.0', '-0' as '0', NaN empty."""
    if isinstance(d, str):
        return d
    d = float(d)
    if math.isnan(d):
        return ""
    if d == 0:
        return "0"
    if math.isinf(d):
        return "inf" if d > 0 else "-inf"
    if d == math.floor(d) and abs(d) < 1e15:
        return str(int(d))
    return repr(d)


def report_rows(sets, axes, per, n_traces):
    header = ["config_id"] + [a[0] for a in axes] + ["traces", "unsettled"]
    for k in METRICS:
        header += [k + "_mean", k + "_p95", k + "_max"]
    summaries = {k: summarise(per[k]) for k in METRICS}
    unsettled = np.isinf(per["settle_time"]).sum(axis=0)
    rows = []
    for i, p in enumerate(sets):
        row = [str(i)] + [fmt(p[a[0]]) for a in axes] + [str(n_traces), str(int(unsettled[i]))]
        for k in METRICS:
            row += [fmt(measured(x[i])) for x in summaries[k]]
        rows.append(row)
    return header, rows


def write_csv(path, header, rows):
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    tmp = path + ".tmp"
    with open(tmp, "w", newline="") as f:
        f.write(",".join(header) + "\n")
        for r in rows:
            f.write(",".join(r) + "\n")
    os.replace(tmp, path)


def csv_text(s):
    return '"' + s.replace('"', '""') + '"' if any(ch in s for ch in ',"\n\r') or s[:1] == " " or s[-1:] == " " else s


def write_per_trace(path, sets, axes, traces, per):
    header = ["config_id"] + [a[0] for a in axes] + ["trace", "intent"] + METRICS + ["unsettled"]
    rows = []
    for i, p in enumerate(sets):
        base = [str(i)] + [fmt(p[a[0]]) for a in axes]
        for t, tr in enumerate(traces):
            vals = [per[k][t, i] for k in METRICS]
            rows.append(base + [csv_text(tr.id), tr.intent or ""] +
                        [fmt(measured(v)) if np.isfinite(v) else "" for v in vals] +
                        ["1" if np.isinf(per["settle_time"][t, i]) else "0"])
    write_csv(path, header, rows)


def process_seconds():
    """Seconds since this process started (Linux /proc), or None."""
    try:
        with open("/proc/self/stat") as f:
            start_ticks = int(f.read().rsplit(")", 1)[1].split()[19])
        with open("/proc/uptime") as f:
            uptime = float(f.read().split()[0])
        return uptime - start_ticks / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None


def main(argv=None):
    wall0 = time.perf_counter()
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--preset", default=os.path.join(REPO, "Presets", "evernote.json"))
    ap.add_argument("--traces", nargs="+", help="trace CSV files or folders of them (default: the preset's bundled set)")
    ap.add_argument("--out", default="report.csv", help="report CSV path (default: report.csv)")
    ap.add_argument("--per-trace", metavar="CSV", help="also write per-trace metrics (springtune's per-trace.csv layout)")
    ap.add_argument("--vary", action="append", default=[], metavar="NAME=VALUES",
                    help="replace or add a sweep axis, as springtune sweep --vary: NAME=FROM:TO:STEPS[:log] or NAME=v1,v2,…")
    ap.add_argument("--sets", type=int, help="synthetic grid of at least N sets: the preset's last from/to/steps axis refined")
    ap.add_argument("--block", type=int, default=128, help="parameter sets per vectorised block (default 128; 0 = all at once)")
    args = ap.parse_args(argv)

    preset, params, scene, axes = load_preset(args.preset)
    axes = apply_vary(axes, args.vary)
    if args.sets:
        axes = refine_axes(axes, args.sets)
    for name, _, _ in axes:
        if name not in DEFAULT_PARAMS and name not in SCENE_SWEEPABLE:
            raise SystemExit(f"cannot sweep {name!r}: not a flow-layout parameter or a scene value")
    sets = grid_sets(params, axes)
    traces = read_traces(trace_files(preset, args.traces))

    t0, c0 = time.perf_counter(), time.process_time()
    per = run_sweep(sets, scene, traces, block=args.block if args.block > 0 else len(sets))
    header, rows = report_rows(sets, axes, per, len(traces))
    compute, compute_cpu = time.perf_counter() - t0, time.process_time() - c0

    write_csv(args.out, header, rows)
    if args.per_trace:
        write_per_trace(args.per_trace, sets, axes, traces, per)
    total = process_seconds()
    script = time.perf_counter() - wall0
    total_txt = f"{total:.2f}" if total is not None else f"{script:.2f}(script only)"
    print(f"numpy: sets={len(sets)} traces={len(traces)} seconds={compute:.2f} cpu_seconds={compute_cpu:.2f} "
          f"total_seconds={total_txt} (seconds: wall time of the computation, without start-up, "
          f"reading and writing; total: wall time since process start)")


if __name__ == "__main__":
    main()
