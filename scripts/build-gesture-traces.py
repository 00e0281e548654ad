#!/usr/bin/env python3
"""Builds the labelled gesture trace sets (pinch, fold, transition) from real recordings.

Inputs are trace CSVs in points made by `springtune traces import --join gestures` and
`springtune traces synthesize` (see scripts/build-gesture-traces.sh). Labels come only from each
recording's geometry, by the rules written in Sources/SpringTune/Resources/Traces/<set>/README.md,
never from a model's decision; synthetic pinches are relabelled by the same written rule.
Transformations (translate, mirror, quarter turn) are rigid and keep timing.
Usage: build-gesture-traces.py --gestures FILE... --pinch-synthetic FILE --fold-synthetic FILE
                               --drags FILE... --out DIR [--verbose]
"""
import argparse
import csv
import math
from collections import OrderedDict

W, H = 390.0, 844.0  # screen, pt
ROW = 60.0           # pt: the Clear row height; a full row of separation change
MIN_PATH = 20.0      # pt: shorter one-finger touches are taps, not drags
EDGE = 20.0          # pt: a transition must begin within this of the left edge
HALF = W / 2         # pt: half the screen width
FAST = 300.0         # pt/s: rightward speed over the last 50 ms that still throws the page
EDGE_X0 = [2.0, 6.0, 10.0, 14.0, 18.0]      # touch-down x of edge-placed transition traces
FAR_X0 = [30.0, 50.0, 70.0, 95.0, 120.0]    # touch-down x of every 4th transition trace


def read(path):
    """trace id -> rows [t, x, y, phase, pointer, synthetic] in file order."""
    traces = OrderedDict()
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            traces.setdefault(r["trace"], []).append(
                [float(r["t"]), float(r["x"]), float(r["y"]), r["phase"],
                 int(r.get("pointer") or 0), int(r.get("synthetic") or 0), r.get("intent") or ""])
    return traces


def pointers(rows):
    """Pointer ids in the order they began."""
    order = []
    for r in rows:
        if r[3] == "began" and r[4] not in order:
            order.append(r[4])
    return order


def first_two(rows):
    """Only the rows of pointers A and B (the first two to begin), renumbered 0 and 1."""
    a, b = pointers(rows)[:2]
    return [[r[0], r[1], r[2], r[3], 0 if r[4] == a else 1, r[5], r[6]] for r in rows if r[4] in (a, b)]


def separations(rows):
    """Vertical separations |y_B - y_A| (pt), one per time stamp, from the first moment both A (0)
    and B (1) are down to the first lift of either (that frame included)."""
    pos, seps, i = {}, [], 0
    while i < len(rows):
        j = i
        while j < len(rows) and rows[j][0] == rows[i][0]:
            j += 1
        lifted = False
        for r in rows[i:j]:
            pos[r[4]] = r[2]
            lifted |= r[3] in ("ended", "cancelled")
        if 0 in pos and 1 in pos:
            seps.append(abs(pos[1] - pos[0]))
        if lifted and seps:
            break
        i = j
    return seps


def pinch_label(rows):
    s = separations(rows)
    return "create" if max(s) - s[0] >= ROW else "cancel"


def fold_label(rows):
    s = separations(rows)
    return "dismiss" if s[0] - min(s) >= ROW else "keep"


def translate(rows, dx, dy):
    return [[r[0], r[1] + dx, r[2] + dy] + r[3:] for r in rows]


def centre(rows):
    """Translates so the bounding box of all samples is centred on the screen, axis by axis; on an
    axis where the box is larger than the screen, the box of the touch-down points is centred
    instead (so the fingers begin on screen where they can)."""
    shift = []
    for k, size in ((1, W), (2, H)):
        v = [r[k] for r in rows]
        if max(v) - min(v) > size:
            v = [r[k] for r in rows if r[3] == "began"]
        shift.append(size / 2 - (min(v) + max(v)) / 2)
    return translate(rows, *shift)


def positions(rows):
    return [r for r in rows if r[3] in ("began", "moved")]


def path_length(rows):
    p = positions(rows)
    return sum(math.hypot(b[1] - a[1], b[2] - a[2]) for a, b in zip(p, p[1:]))


def rightward(rows):
    """Rigid turn so the drag's main excursion (touch-down to the sample farthest from it) points
    right: horizontal-dominant leftward ones mirrored (dx -> -dx); vertical-dominant ones turned a
    quarter turn, downward ones by (dx, dy) -> (dy, -dx) (down becomes right), upward ones by
    (dx, dy) -> (-dy, dx) (up becomes right). Offsets are about the touch-down point (which ends at
    0, 0); times are kept."""
    p = positions(rows)
    far = max(p, key=lambda q: math.hypot(q[1] - p[0][1], q[2] - p[0][2]))
    ex, ey = far[1] - p[0][1], far[2] - p[0][2]
    if abs(ex) >= abs(ey):
        fn, how = ((lambda dx, dy: (dx, dy)), "as-recorded") if ex >= 0 else ((lambda dx, dy: (-dx, dy)), "mirrored")
    elif ey >= 0:
        fn, how = (lambda dx, dy: (dy, -dx)), "down-to-right"
    else:
        fn, how = (lambda dx, dy: (-dy, dx)), "up-to-right"
    x0, y0 = rows[0][1], rows[0][2]
    out = []
    for r in rows:
        dx, dy = fn(r[1] - x0, r[2] - y0)
        out.append([r[0], dx, dy] + r[3:])
    return out, how


def lift_vx(rows):
    """Rightward speed (pt/s) between the last position sample and the last one at least 50 ms
    before it (the first sample if none is that old)."""
    p = positions(rows)
    last = p[-1]
    older = [q for q in p if last[0] - q[0] >= 0.05]
    ref = older[-1] if older else p[0]
    dt = last[0] - ref[0]
    return 0.0 if dt <= 0 else (last[1] - ref[1]) / dt


def transition_label(rows):
    """rows begin at the touch-down point (rows[0])."""
    x0 = rows[0][1]
    travel = positions(rows)[-1][1] - x0
    return "dismiss" if x0 <= EDGE and (travel >= HALF or lift_vx(rows) >= FAST) else "keep"


def signature(rows):
    """Identical recordings (same samples up to a time shift) have the same signature."""
    t0 = rows[0][0]
    return tuple((round(r[0] - t0, 4), round(r[1], 3), round(r[2], 3), r[3]) for r in rows)


def write(path, rows, with_synthetic):
    with open(path, "w", newline="") as f:
        f.write("trace,t,x,y,phase,intent,pointer" + (",synthetic" if with_synthetic else "") + "\n")
        for tid, intent, s in rows:
            t0 = s[0][0]
            for r in s:
                f.write(f"{tid},{round(r[0] - t0, 9)!r},{round(r[1], 6)!r},{round(r[2], 6)!r},{r[3]},{intent},{r[4]}"
                        + (f",{r[5]}" if with_synthetic else "") + "\n")


def count(rows):
    out = {}
    for tid, intent, s in rows:
        key = ("synthetic" if s[0][5] else "real", intent)
        out[key] = out.get(key, 0) + 1
    return dict(sorted(out.items()))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--gestures", nargs="+", required=True)
    ap.add_argument("--pinch-synthetic", required=True)
    ap.add_argument("--fold-synthetic", required=True)
    ap.add_argument("--drags", nargs="+", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--verbose", action="store_true", help="print every trace's label inputs")
    a = ap.parse_args()

    # Real two-finger gestures: every gesture-grouped trace with at least two pointers; the first
    # two pointers kept, later ones dropped; translated onto the screen (see centre()).
    real = []
    for path in a.gestures:
        for tid, rows in read(path).items():
            n = len(pointers(rows))
            if n >= 2:
                if n > 2:
                    print(f"  {tid}: {n} pointers, kept the first two")
                real.append((tid, centre(first_two(rows))))

    def two_finger_set(kind, synthetic_path, label):
        rows = [(tid, label(s), s) for tid, s in real]
        changed = 0
        for tid, s in read(synthetic_path).items():
            s = [r[:5] + [1, r[6]] for r in s]
            intent = label(s)
            changed += intent != s[0][6]
            rows.append((tid, intent, s))
        off = sum(1 for _, _, s in rows if min(r[1] for r in s) < 0 or max(r[1] for r in s) > W
                  or min(r[2] for r in s) < 0 or max(r[2] for r in s) > H)
        print(f"{kind}: {len(rows)} traces {count(rows)}; synthetic labels changed by the rule: {changed}; "
              f"leaving the screen: {off}")
        for tid, intent, s in rows if a.verbose else []:
            if not s[0][5]:
                sep = separations(s)
                print(f"  {tid:58s} {intent:8s} d0={sep[0]:6.1f} widest={max(sep) - sep[0]:+6.1f} narrowest={min(sep) - sep[0]:+6.1f}")
        return rows

    pinch = two_finger_set("pinch", a.pinch_synthetic, pinch_label)
    write(f"{a.out}/pinch/traces.csv", pinch, True)
    fold = two_finger_set("fold", a.fold_synthetic, fold_label)
    write(f"{a.out}/fold/traces.csv", fold, True)

    # transition: real one-finger drags (single-pointer gestures, duplicates dropped, path >= 20 pt)
    # turned rightward, placed with touch-down at x0 (edge for 3 of 4, beyond the edge for every 4th)
    # and centred vertically.
    seen, drags, dups = set(), [], 0
    for path in a.drags:
        for tid, rows in read(path).items():
            if len(pointers(rows)) != 1:
                continue
            sig = signature(rows)
            if sig in seen:
                dups += 1
                if a.verbose:
                    print(f"  duplicate dropped: {tid} ({path.split('/')[-1]})")
                continue
            seen.add(sig)
            if path_length(rows) >= MIN_PATH:
                drags.append((tid, rows))
    trans, hows, edge_n = [], {}, 0
    for i, (tid, rows) in enumerate(drags):
        s, how = rightward(rows)
        hows[how] = hows.get(how, 0) + 1
        left = -min(r[1] for r in s)  # how far the finger went left of its touch-down
        if i % 4 == 3:
            x0 = max(FAR_X0[(i // 4) % len(FAR_X0)], left)
        else:
            x0 = min(max(EDGE_X0[edge_n % len(EDGE_X0)], left), EDGE_X0[-1])
            edge_n += 1
        ys = [r[2] for r in s]
        s = translate(s, x0, H / 2 - (min(ys) + max(ys)) / 2)
        trans.append((f"{tid}-{how}", transition_label(s), s))
    write(f"{a.out}/transition/traces.csv", trans, False)
    off = [tid for tid, _, s in trans if min(r[1] for r in s) < 0 or max(r[1] for r in s) > W
           or min(r[2] for r in s) < 0 or max(r[2] for r in s) > H]
    print(f"transition: {len(trans)} traces {count(trans)}; duplicates dropped: {dups}; turns: {hows}; "
          f"edge x0: {edge_n}, far x0: {len(trans) - edge_n}; leaving the screen: {len(off)}")
    for tid, intent, s in trans if a.verbose else []:
        p = positions(s)
        print(f"  {tid:64s} {intent:8s} x0={s[0][1]:5.1f} travel={p[-1][1] - s[0][1]:+7.1f} vx50={lift_vx(s):+8.1f}"
              f" x=[{min(r[1] for r in s):.0f},{max(r[1] for r in s):.0f}] y=[{min(r[2] for r in s):.0f},{max(r[2] for r in s):.0f}]")


if __name__ == "__main__":
    main()
