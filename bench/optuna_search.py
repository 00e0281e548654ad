#!/usr/bin/env python3
"""Side-by-side: `springtune search` (Gaussian-process constrained search) vs Optuna's default
sampler (TPESampler) on the same box, the same evaluator and the same evaluation budget.

    bench/run_optuna.sh [--presets tweetbot,evernote,appstore,clear] [--seeds 1,2,3,4,5]
                        [--budget 100] [--springtune PATH] [--check]

Per preset: one grid sweep (`springtune sweep`) gives the grid best, the best feasible objective
value of the preset's grid. Per (preset, seed):
  - springtune: `springtune search --preset P --budget N --seed S --out DIR --no-charts`; its
    box, objective direction and convergence (best feasible value after each evaluation) are
    read from DIR/report.meta.json ("search").
  - optuna: TPESampler(seed=S), N trials over the same box; every trial's set is evaluated by
    one long-running `springtune evaluate --preset P` child (one JSON line in, one out).
Each run gives: evaluations to reach the grid best (1-based; "never" within N), best feasible
value after N, wall and CPU seconds (CPU: getrusage deltas, the python process plus children
for optuna, children only for springtune; springtune's include the robustness and margin
checks `search` runs on top of the budget). Prints a markdown table per preset and a verdict
line; --check exits 1 when a preset is WORSE.
"""
import argparse, json, math, os, resource, statistics, subprocess, sys, tempfile, time

import optuna

RTOL = 1e-9  # relative tolerance for "reached the grid best" and "no worse"


def cpu_seconds(who):
    """User + system CPU seconds of RUSAGE_SELF or RUSAGE_CHILDREN (waited-for children only)."""
    r = resource.getrusage(who)
    return r.ru_utime + r.ru_stime


def number(v):
    """A JSON objective value as a float: None stays None, "inf"/"-inf" strings become infinities."""
    if v is None:
        return None
    return float(v)  # float("inf") parses the string form too


def better_or_equal(a, b, maximize):
    """a is at least as good as b, to a relative RTOL (None = no feasible value = worst)."""
    if a is None or b is None:
        return b is None
    slack = RTOL * abs(b) if math.isfinite(b) else 0.0
    return a >= b - slack if maximize else a <= b + slack


def evals_to_reach(convergence, target, maximize):
    """First 1-based evaluation whose best-so-far reaches target; None = never (or no target)."""
    if target is None:
        return None
    for i, best in enumerate(convergence, 1):
        if best is not None and better_or_equal(best, target, maximize):
            return i
    return None


def run(cmd, **kw):
    """Runs cmd, exits with its stderr when it fails."""
    p = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if p.returncode != 0:
        sys.exit(f"failed ({p.returncode}): {' '.join(cmd)}\n{p.stderr.strip()}")
    return p.stdout


def grid_best(st, preset, tmp):
    """(best feasible objective value of the preset's sweep grid or None, sets in the grid).

    Ranks with `springtune pick`, with the sidecar's objective restated as flags so that the
    ranking is the plain one: `robust` (worst over grid neighbours) would rank by a different
    value than the search's convergence records. With targets, pick ranks off-target sets
    (by deviation) when none is on target, so the first row is checked against them here."""
    out = os.path.join(tmp, f"sweep-{preset}")
    run([st, "sweep", "--preset", preset, "--no-charts", "--out", out])
    report = os.path.join(out, "report.csv")
    with open(os.path.join(out, "report.meta.json")) as f:
        meta = json.load(f)
    obj = meta["preset"]["objective"]
    maximize = obj.get("maximize") is not None
    column = obj["maximize"] if maximize else obj["minimize"]
    flags = ["--maximize" if maximize else "--minimize", column]
    flags += [a for c in obj.get("constraints", []) for a in ("--where", c.replace(" ", ""))]
    flags += [a for t in obj.get("targets", []) for a in ("--target", t)]
    lines = run([st, "pick", report, "--format", "csv"] + flags).splitlines()
    if len(lines) < 2:
        return None, meta["configs"]  # no set meets the constraints
    header, first = lines[0].split(","), lines[1].split(",")
    row = dict(zip(header, first))
    for t in obj.get("targets", []):
        name, rhs = (s.strip() for s in t.split("=", 1))
        value, tol = (float(s) for s in rhs.replace("+-", "±").split("±"))
        if row[name] == "" or not abs(float(row[name]) - value) / tol <= 1:
            return None, meta["configs"]  # nothing on target
    return number(row[column] or None), meta["configs"]


def springtune_run(st, preset, seed, budget, tmp):
    """One `springtune search` run: (box, maximize, column, convergence, wall s, CPU s)."""
    out = os.path.join(tmp, f"search-{preset}-{seed}")
    cpu0, t0 = cpu_seconds(resource.RUSAGE_CHILDREN), time.perf_counter()
    run([st, "search", "--preset", preset, "--budget", str(budget), "--seed", str(seed),
         "--out", out, "--no-charts"])
    wall, cpu = time.perf_counter() - t0, cpu_seconds(resource.RUSAGE_CHILDREN) - cpu0
    with open(os.path.join(out, "report.meta.json")) as f:
        search = json.load(f)["search"]
    conv = [number(v) for v in search["convergence"]]
    if len(conv) != budget:
        print(f"note: {preset} seed {seed}: springtune search recorded {len(conv)} evaluations, "
              f"budget {budget}", file=sys.stderr)
    return search["box"], bool(search["maximize"]), search["column"], conv, wall, cpu


class Evaluator:
    """A long-running `springtune evaluate --preset P` child: one JSON set per line in, one
    JSON result line out ({"feasible": bool, "objective": number | null | "inf", ...})."""

    def __init__(self, st, preset):
        self.err = tempfile.TemporaryFile(mode="w+")
        self.proc = subprocess.Popen([st, "evaluate", "--preset", preset], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=self.err, text=True, bufsize=1)

    def __call__(self, params):
        try:
            self.proc.stdin.write(json.dumps(params) + "\n")
            self.proc.stdin.flush()
            line = self.proc.stdout.readline()
        except BrokenPipeError:
            line = ""
        if not line:
            self.err.seek(0)
            sys.exit(f"springtune evaluate ended without an answer for {params}:\n{self.err.read().strip()}")
        answer = json.loads(line)
        if "error" in answer:
            sys.exit(f"springtune evaluate rejected {params}: {answer['error']}")
        return bool(answer["feasible"]), number(answer.get("objective"))

    def close(self):
        """Closes stdin and waits, so that the child's CPU time counts in RUSAGE_CHILDREN."""
        self.proc.stdin.close()
        self.proc.wait()
        self.err.close()


def optuna_run(st, preset, seed, budget, box, maximize):
    """N TPESampler(seed) trials over box, evaluated by springtune: (convergence, wall s, CPU s).

    Optuna minimizes: the objective (negated when maximizing) for a feasible set; 1e8 for a
    feasible set with an infinite objective; 1e9 + that value (or + 1e6 when infinite or
    missing) for an infeasible one, so any feasible value beats any infeasible one."""
    cpu0 = cpu_seconds(resource.RUSAGE_SELF) + cpu_seconds(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    evaluate = Evaluator(st, preset)
    convergence, best = [], None

    def objective(trial):
        nonlocal best
        params = {}
        for p in box:
            if "words" in p:
                params[p["name"]] = trial.suggest_categorical(p["name"], p["words"])
            else:
                params[p["name"]] = trial.suggest_float(p["name"], p["from"], p["to"], log=bool(p.get("log")))
        feasible, value = evaluate(params)
        if feasible and value is not None and (best is None or better_or_equal(value, best, maximize)):
            best = value
        convergence.append(best)
        signed = None if value is None else (-value if maximize else value)
        if feasible:
            return signed if math.isfinite(signed) else 1e8
        return 1e9 + (signed if signed is not None and math.isfinite(signed) else 1e6)

    study = optuna.create_study(direction="minimize", sampler=optuna.samplers.TPESampler(seed=seed))
    study.optimize(objective, n_trials=budget)
    evaluate.close()
    wall = time.perf_counter() - t0
    cpu = cpu_seconds(resource.RUSAGE_SELF) + cpu_seconds(resource.RUSAGE_CHILDREN) - cpu0
    return convergence, wall, cpu


def fmt(v):
    """A value for the table: 'none' for no feasible value, else 4 significant digits."""
    return "none" if v is None or (isinstance(v, float) and math.isinf(v)) else f"{v:.4g}"


def summarize(runs, budget, maximize):
    """Medians of a side's runs: (evals with never = N+1, best with none = worst, wall, CPU)."""
    worst = -math.inf if maximize else math.inf
    evals = statistics.median([r["evals"] or budget + 1 for r in runs])
    best = statistics.median([worst if r["best"] is None else r["best"] for r in runs])
    return (evals, best, statistics.median(r["wall"] for r in runs),
            statistics.median(r["cpu"] for r in runs))


def report(preset, column, maximize, grid, sets, budget, seeds, sides):
    """Prints the preset's table and verdict line; returns True when springtune is OK."""
    print(f"\n### {preset}: {'maximize' if maximize else 'minimize'} {column}, "
          f"grid best {fmt(grid)} ({sets} sets), budget {budget}\n")
    print("| side | " + " | ".join(f"seed {s}" for s in seeds) +
          " | median evals | median best after N | median wall s | median CPU s |")
    print("|---" * (len(seeds) + 5) + "|")
    medians = {}
    for name, runs in sides.items():
        medians[name] = m = summarize(runs, budget, maximize)
        cells = ["never" if r["evals"] is None else str(r["evals"]) for r in runs]
        ev = "never" if m[0] > budget else f"{m[0]:g}"
        print(f"| {name} | " + " | ".join(cells) + f" | {ev} | {fmt(m[1])} | {m[2]:.2f} | {m[3]:.2f} |")
    (se, sb, _, _), (oe, ob, _, _) = medians["springtune"], medians["optuna"]
    ok = se <= oe and better_or_equal(sb, ob, maximize)  # no feasible value is ±inf here: worst
    print(f"\n{preset}: springtune median evals {'never' if se > budget else f'{se:g}'} vs optuna "
          f"{'never' if oe > budget else f'{oe:g}'}; median best {fmt(sb)} vs {fmt(ob)}: {'OK' if ok else 'WORSE'}")
    return ok


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--presets", default="tweetbot,evernote,appstore,clear", help="comma-separated")
    ap.add_argument("--seeds", default="1,2,3,4,5", help="comma-separated, or FROM..TO")
    ap.add_argument("--budget", type=int, default=100, help="evaluations per run (N)")
    ap.add_argument("--springtune", default=os.environ.get("SPRINGTUNE", os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".build", "release", "springtune")))
    ap.add_argument("--check", action="store_true", help="exit 1 when any preset is WORSE")
    a = ap.parse_args()
    if ".." in a.seeds:
        lo, hi = a.seeds.split("..")
        seeds = list(range(int(lo), int(hi) + 1))
    else:
        seeds = [int(s) for s in a.seeds.split(",")]
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    print(f"springtune: {a.springtune}; optuna {optuna.__version__} TPESampler (default); "
          f"{os.cpu_count()} cores, load {os.getloadavg()[0]:.2f}")
    worse = []
    with tempfile.TemporaryDirectory(prefix="optuna-bench-") as tmp:
        for preset in a.presets.split(","):
            grid, sets = grid_best(a.springtune, preset, tmp)
            sides = {"springtune": [], "optuna": []}
            for seed in seeds:
                box, maximize, column, conv, wall, cpu = springtune_run(a.springtune, preset, seed, a.budget, tmp)
                sides["springtune"].append(dict(evals=evals_to_reach(conv, grid, maximize),
                                                best=conv[-1] if conv else None, wall=wall, cpu=cpu))
                conv, wall, cpu = optuna_run(a.springtune, preset, seed, a.budget, box, maximize)
                sides["optuna"].append(dict(evals=evals_to_reach(conv, grid, maximize),
                                            best=conv[-1] if conv else None, wall=wall, cpu=cpu))
            if not report(preset, column, maximize, grid, sets, a.budget, seeds, sides):
                worse.append(preset)
    sys.exit(1 if a.check and worse else 0)


if __name__ == "__main__":
    main()
