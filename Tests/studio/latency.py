#!/usr/bin/env python3
"""POST /api/replay latency: N requests with random values on the preset's axes, each on the
first 6 traces; then POST /api/evaluate latency: N/4 requests with other random values, each
over every trace with its 95 % intervals (Reference §14: 1000 resamples over the groups); prints
p50/p95/max in ms of each. Usage: latency.py URL_WITH_TOKEN [N] [SEED]."""
import json, random, sys, time, urllib.parse, urllib.request

url = sys.argv[1]
n = int(sys.argv[2]) if len(sys.argv) > 2 else 200
rng = random.Random(int(sys.argv[3]) if len(sys.argv) > 3 else 1)
parts = urllib.parse.urlsplit(url)
base = f"{parts.scheme}://{parts.netloc}"
token = urllib.parse.parse_qs(parts.query)["token"][0]
headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}

def call(method, path, body=None):
    req = urllib.request.Request(base + path, method=method, headers=headers,
                                 data=None if body is None else json.dumps(body).encode())
    with urllib.request.urlopen(req) as r:
        return r.read()

preset = json.loads(call("GET", "/api/preset"))
traces = [t["id"] for t in preset["traces"]][:6]

def value(axis):
    if axis.get("words"):
        return rng.choice(axis["words"])
    lo, hi = axis["min"], axis["max"]
    if axis["log"]:
        import math
        return math.exp(rng.uniform(math.log(lo), math.log(hi)))
    return rng.uniform(lo, hi)

def timed(count, path, body):
    """`count` calls of `path` with `body()`: their times (ms, sorted) and the last answer's size."""
    times, size = [], 0
    for _ in range(count):
        data = body()
        t0 = time.perf_counter()
        size = len(call("POST", path, data))
        times.append((time.perf_counter() - t0) * 1000)
    return sorted(times), size

def figures(times):
    p = lambda q: times[min(len(times) - 1, max(0, int(-(-q * len(times) // 1)) - 1))]
    return f"p50 {p(0.5):.1f} ms, p95 {p(0.95):.1f} ms, max {times[-1]:.1f} ms"

params = lambda: {a["name"]: value(a) for a in preset["axes"]}
times, size = timed(n, "/api/replay", lambda: {"params": params(), "traces": traces})
print(f"replay latency over {n} requests, {len(traces)} traces ({preset['name']}, {size} bytes): {figures(times)}")
m = max(1, n // 4)
times, size = timed(m, "/api/evaluate", lambda: {"params": params()})
print(f"evaluate latency with intervals over {m} requests, {len(preset['traces'])} traces ({preset['name']}, {size} bytes): {figures(times)}")
