#!/usr/bin/env python3
"""Builds the labelled bundled trace sets (flick, card, pull) from real recordings.

Inputs are trace CSVs in points made by `springtune traces import` (see
scripts/build-labelled-traces.sh). Labels come only from each recording's task or geometry,
by the rules written in Sources/SpringTune/Resources/Traces/<set>/README.md, never from a
model's decision. Transformations (mirror, rotate, translate) are rigid and keep timing.
Usage: build-labelled-traces.py FLINGS.csv DRAGS.csv... OUT_DIR
"""
import csv
import math
import sys
from collections import OrderedDict

REST_SPEED = 150.0   # pt/s over the last 50 ms: the finger had stopped
SLOW_PEAK = 1000.0   # pt/s: a drag that never went faster (over any 50 ms) is a slow drag
MIN_PATH = 20.0      # pt: shorter touches are taps, not drags
ROW = 60.0           # pt: the Clear row height


def read(path):
    traces = OrderedDict()
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            traces.setdefault(r["trace"], []).append([float(r["t"]), float(r["x"]), float(r["y"]), r["phase"]])
    return traces


def positions(s):
    return [p for p in s if p[3] in ("began", "moved")]


def lift_speed(s):
    """Speed (pt/s) between the last position sample and the one about 50 ms before it."""
    p = positions(s)
    last = p[-1]
    older = [q for q in p if last[0] - q[0] >= 0.05]
    ref = older[-1] if older else p[0]
    dt = last[0] - ref[0]
    return 0.0 if dt <= 0 else math.hypot(last[1] - ref[1], last[2] - ref[2]) / dt


def peak_speed(s):
    """Largest speed (pt/s) over any span of at least 50 ms between position samples."""
    p = positions(s)
    best, j = 0.0, 0
    for i, b in enumerate(p):
        while j + 1 < i and b[0] - p[j + 1][0] >= 0.05:
            j += 1
        a = p[j]
        if b[0] - a[0] >= 0.05:
            best = max(best, math.hypot(b[1] - a[1], b[2] - a[2]) / (b[0] - a[0]))
    return best


def path_length(s):
    p = positions(s)
    return sum(math.hypot(b[1] - a[1], b[2] - a[2]) for a, b in zip(p, p[1:]))


def net(s):
    p = positions(s)
    return p[-1][1] - p[0][1], p[-1][2] - p[0][2]


def transform(s, start, fn):
    """Applies fn(dx, dy) -> (dx', dy') to offsets from the first sample and moves it to start."""
    x0, y0 = s[0][1], s[0][2]
    out = []
    for t, x, y, ph in s:
        dx, dy = fn(x - x0, y - y0)
        out.append([t, start[0] + dx, start[1] + dy, ph])
    return out


def down(s, start):
    """Mirrors vertically when the net motion is upward, so the drag goes down."""
    _, ny = net(s)
    return transform(s, start, (lambda dx, dy: (dx, dy)) if ny >= 0 else (lambda dx, dy: (dx, -dy)))


def rightward(s, start):
    """Rotates a mostly vertical motion a quarter turn so it goes right (an edge pan)."""
    _, ny = net(s)
    return transform(s, start, (lambda dx, dy: (dy, -dx)) if ny >= 0 else (lambda dx, dy: (-dy, dx)))


def quarter(s):
    return transform(s, (s[0][1], s[0][2]), lambda dx, dy: (-dy, dx))


def write(path, rows):
    with open(path, "w", newline="") as f:
        f.write("trace,t,x,y,phase,intent\n")
        for tid, intent, s in rows:
            t0 = s[0][0]
            for t, x, y, ph in s:
                f.write(f"{tid},{round(t - t0, 9)!r},{round(x, 6)!r},{round(y, 6)!r},{ph},{intent}\n")


def main():
    flings_path, drag_paths, out = sys.argv[1], sys.argv[2:-1], sys.argv[-1]
    flings = read(flings_path)
    drags = OrderedDict()
    for p in drag_paths:
        drags.update(read(p))
    rest = [(k, s) for k, s in drags.items()
            if path_length(s) >= MIN_PATH and (lift_speed(s) < REST_SPEED or peak_speed(s) < SLOW_PEAK)]
    vertical_rest = [(k, s) for k, s in rest if abs(net(s)[1]) >= abs(net(s)[0])]
    horizontal_rest = [(k, s) for k, s in rest if abs(net(s)[1]) < abs(net(s)[0])]

    # flick: throws = the AOSP fling recordings as recorded and turned a quarter (horizontal);
    # keep = drags that end at rest, as recorded and turned a quarter.
    flick = [(k, "dismiss", s) for k, s in flings.items()]
    flick += [(k + "-rot90", "dismiss", quarter(s)) for k, s in flings.items()]
    flick += [(k, "keep", s) for k, s in rest]
    flick += [(k + "-rot90", "keep", quarter(s)) for k, s in rest]
    write(f"{out}/flick/traces.csv", flick)

    # card: throws made downward from mid-screen (drag down) and turned into rightward pans from
    # the left edge (x = 10); keep = vertical rest drags made downward, horizontal ones as pans.
    card = [(k + "-down", "dismiss", down(s, (195, 200))) for k, s in flings.items()]
    card += [(k + "-edge", "dismiss", rightward(s, (10, 300))) for k, s in flings.items()]
    card += [(k + "-down", "keep", down(s, (195, 200))) for k, s in vertical_rest]
    card += [(k + "-edge", "keep", transform(s, (10, 300), (lambda dx, dy: (dx, dy)) if net(s)[0] >= 0 else (lambda dx, dy: (-dx, dy))))
             for k, s in horizontal_rest]
    write(f"{out}/card/traces.csv", card)

    # pull: every vertical recording made downward from y = 120; create when the pull reached a
    # full row (60 pt) and was not pulled back below 75 % of its furthest extent at lift-off.
    pulls = []
    for k, s in list(flings.items()) + [(k, s) for k, s in drags.items() if abs(net(s)[1]) >= abs(net(s)[0]) and path_length(s) >= MIN_PATH]:
        d = down(s, (195, 120))
        ext = [p[2] - 120 for p in positions(d)]
        furthest, final = max(ext), ext[-1]
        intent = "create" if furthest >= ROW and final >= 0.75 * furthest else "cancel"
        pulls.append((k + "-pull", intent, d))
    write(f"{out}/pull/traces.csv", pulls)

    for name, rows in (("flick", flick), ("card", card), ("pull", pulls)):
        counts = {}
        for _, intent, _ in rows:
            counts[intent] = counts.get(intent, 0) + 1
        print(f"{name}: {len(rows)} traces {counts}")


if __name__ == "__main__":
    main()
