"""Live touch (docs/Reference.md §10.16, live touch) over a real socket and in headless Chromium.

Over /api/live (the `websockets` client): the upgrade without the token or with a foreign Origin
is refused (the library's 400; the same GET without Upgrade is 401 or 403); an evernote fling's samples give frames and a `done`, and POST /api/replay of the
kept trace with the done's parameters gives the same frames to 1e-9; clear-pinch with two
pointers the same; a 100 KiB message and bad JSON close only that socket, with a reason; 600
samples of a drag at 120 Hz answered, the client-measured time printed (a figure, not a check);
two gestures, one labelled: GET /api/recordings.csv passes `traces validate` and sweeps with
`sweep --traces`. In Chromium: synthetic touches (the DevTools protocol) on the phone with
"feel it" on are stepped by the page's engine module, each drawn in the next display frame (also
with the socket delayed by 100 ms), equal the replay of the recording they make ($OUT/live.png). `studio --host 127.0.0.2`
serves there; the page without the token is 401.
"""
import base64
import csv
import json
import os
import socket as sockets
import subprocess
import threading
import time
import urllib.error
import urllib.parse
import urllib.request

from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from http_checks import http_test
from page import BIN, OUT, Studio, check, ready, wait


def parts(url):
    u = urllib.parse.urlparse(url)
    return u.netloc, urllib.parse.parse_qs(u.query)["token"][0]


def socket(url, token=True, origin=None):
    host, tok = parts(url)
    return connect(f"ws://{host}/api/live" + (f"?token={tok}" if token else ""), origin=origin or f"http://{host}",
                   open_timeout=10, max_size=None)


def refused_status(url, **kw):
    try:
        socket(url, **kw).close()
        return 101
    except Exception as e:  # websockets.InvalidStatus
        return getattr(getattr(e, "response", None), "status_code", None)


def post(url, path, body):
    host, tok = parts(url)
    req = urllib.request.Request(f"http://{host}{path}", data=json.dumps(body).encode(), method="POST",
                                 headers={"Authorization": f"Bearer {tok}", "Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=60) as r:
        return json.load(r)


def get(url, path):
    host, tok = parts(url)
    req = urllib.request.Request(f"http://{host}{path}", headers={"Authorization": f"Bearer {tok}"})
    with urllib.request.urlopen(req, timeout=60) as r:
        return r.read()


def traces(path):
    """Bundled traces by id: [(t, x, y, phase, pointer)] rows."""
    out = {}
    with open(path) as f:
        for row in csv.DictReader(f):
            out.setdefault(row["trace"], []).append((float(row["t"]), float(row["x"]), float(row["y"]), row["phase"], int(row.get("pointer") or 0)))
    return out


def messages(rows):
    """The page's messages: one per time and phase, every pointer of that row."""
    out, i = [], 0
    while i < len(rows):
        j = i
        while j < len(rows) and rows[j][0] == rows[i][0] and rows[j][3] == rows[i][3]:
            j += 1
        out.append({"t": rows[i][0], "phase": rows[i][3], "pointers": [{"id": r[4], "x": r[1], "y": r[2]} for r in rows[i:j]]})
        i = j
    return out


def play(ws, rows, opening=None):
    """Sends a gesture; returns (frames, done)."""
    if opening is not None:
        ws.send(json.dumps(opening))
    frames, done = [], None
    sent = messages(rows)
    for k, m in enumerate(sent):
        ws.send(json.dumps(m))
        # One frames answer a message; after the last lift, a done follows it.
        for _ in range(2 if k == len(sent) - 1 else 1):
            answer = json.loads(ws.recv(timeout=30))
            if "frames" in answer:
                frames += answer["frames"]
            else:
                done = answer
    return frames, done


def same_frames(url, frames, done):
    replay = post(url, "/api/replay", {"params": done["params"], "traces": [done["trace"]]})["replays"][0]["frames"]
    if len(replay) != len(frames):
        return False, f"{len(frames)} live frames, {len(replay)} replayed"
    worst = 0.0
    for a, b in zip(frames, replay):
        worst = max([worst, abs(a["t"] - b["t"])] + [abs(p - q) for key in ("shapes", "fingers")
                    for s, r in zip(a[key], b[key]) for p, q in zip(s, r)])
    return worst <= 1e-9, f"largest difference {worst}"


def closed_with(ws, send):
    """Sends `send`, then the close code and reason the server gives."""
    try:
        ws.send(send)
        ws.recv(timeout=10)
    except ConnectionClosed as e:
        return e.rcvd.code if e.rcvd else None, e.rcvd.reason if e.rcvd else ""
    return None, ""


def socket_test(folder):
    studio = Studio("evernote", folder, "live")
    check("live studio prints its URL", studio.url is not None)
    if studio.url is None:
        return
    url = studio.url
    http_test(url)
    # A request whose head never ends: the server closes it after 30 s (timed in the background).
    host, _ = parts(url)
    half = sockets.create_connection((host.split(":")[0], int(host.split(":")[1])))
    half.sendall(f"GET /api/preset HTTP/1.1\r\nHost: {host}\r\n".encode())
    opened, closed = time.time(), []
    def wait_close():
        half.settimeout(60)
        try:
            half.recv(100)
        except OSError:
            pass
        closed.append(time.time() - opened)
    watcher = threading.Thread(target=wait_close, daemon=True)
    watcher.start()
    # A refused upgrade is the library's 400; the same request without Upgrade says why.
    check("live upgrade without the token is refused", refused_status(url, token=False) == 400)
    check("live upgrade from a foreign Origin is refused", refused_status(url, origin="http://evil.example") == 400)
    host, tok = parts(url)
    for name, path, origin, want in (("without the token", "/api/live", f"http://{host}", 401),
                                     ("from a foreign Origin", f"/api/live?token={tok}", "http://evil.example", 403)):
        try:
            urllib.request.urlopen(urllib.request.Request(f"http://{host}{path}", headers={"Origin": origin}), timeout=10)
            status = 200
        except urllib.error.HTTPError as e:
            status = e.code
        check(f"live plain GET {name} is {want}", status == want, str(status))
    flings = traces("Sources/SpringTune/Resources/Traces/default/aosp-flings.csv")
    fling = next(iter(flings.values()))
    with socket(url) as ws:
        frames, done = play(ws, fling, {"screen": [390, 844], "dpr": 3})
        check("live evernote fling: frames and a done with its trace", len(frames) > 10 and done and done["trace"].startswith("live-"))
        ok, detail = same_frames(url, frames, done)
        check("live evernote fling equals POST /api/replay of its trace to 1e-9", ok, detail)
        other = socket(url)
        code, reason = closed_with(ws, "x" * (100 << 10))
        check("live 100 KiB message closes with 1009 and a reason", code == 1009 and "64 KiB" in reason, f"{code} {reason}")
        frames2, done2 = play(other, fling)
        check("live another socket goes on after one closed", done2 is not None and len(frames2) == len(frames))
        code, reason = closed_with(other, "{not json")
        check("live bad JSON closes with 1008 and a reason", code == 1008 and "JSON" in reason, f"{code} {reason}")
    # 600 samples of a drag at 120 Hz: the client's time from a sample sent to its frames received.
    with socket(url) as ws:
        times, start = [], time.perf_counter()
        for k in range(600):
            phase = "began" if k == 0 else "moved"
            due = start + k / 120
            time.sleep(max(0.0, due - time.perf_counter()))
            sent = time.perf_counter()
            ws.send(json.dumps({"t": 100 + k / 120, "phase": phase, "pointers": [{"id": 0, "x": 195, "y": 300 + 0.5 * k}]}))
            json.loads(ws.recv(timeout=30))
            times.append(time.perf_counter() - sent)
        ws.send(json.dumps({"t": 100 + 600 / 120, "phase": "ended", "pointers": [{"id": 0, "x": 195, "y": 600}]}))
        while "done" not in json.loads(ws.recv(timeout=30)):
            pass
        times.sort()
        p50, p95, worst = (1000 * times[int(q * len(times)) - 1] for q in (0.5, 0.95, 1.0))
        # A figure, not a check: CI shares its machine (docs/Studio.md has the measured one).
        print(f"live answer time over loopback, 600 samples at 120 Hz: p50 {p50:.2f} ms, p95 {p95:.2f} ms, max {worst:.2f} ms", flush=True)
        check("live 600 samples each answered with its frames", len(times) == 600)
    # Recordings: three kept so far (two flings, the drag); label one, download, validate, sweep.
    labelled = post(url, "/api/recordings/live-2", {"intent": "keep"})
    check("live label a recording", [r["intent"] for r in labelled["recordings"]][:2] == [None, "keep"])
    path = os.path.join(folder, "recordings.csv")
    with open(path, "wb") as f:
        f.write(get(url, "/api/recordings.csv"))
    meta = json.loads(get(url, "/api/recordings.meta.json"))
    check("live recordings meta: source studio, screen and dpr", meta["source"] == "studio" and meta["recordings"][0]["screen"] == [390, 844]
          and meta["recordings"][0]["dpr"] == 3)
    validate = subprocess.run([BIN, "traces", "validate", path], capture_output=True, text=True)
    check("live recordings.csv passes traces validate", validate.returncode == 0, validate.stdout + validate.stderr)
    sweep = subprocess.run([BIN, "sweep", "--preset", "evernote", "--traces", path, "--out", os.path.join(folder, "recorded-sweep")],
                           capture_output=True, text=True)
    check("live recordings.csv sweeps with sweep --traces", sweep.returncode == 0, sweep.stderr[-400:])
    # A chunked body of 2 MiB (no Content-Length): 413 while it is read, no server insides named.
    chunked = sockets.create_connection((host.split(":")[0], int(host.split(":")[1])))
    _, tok = parts(url)
    chunked.sendall(f"POST /api/evaluate?token={tok} HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n".encode())
    try:
        for _ in range(32):
            chunked.sendall(b"10000\r\n" + b" " * 0x10000 + b"\r\n")
        chunked.sendall(b"0\r\n\r\n")
    except OSError:
        pass  # the server may answer and close before the whole body is sent
    chunked.settimeout(30)
    answer = b""
    try:
        while b"\r\n\r\n" not in answer or not answer.rstrip().endswith(b"}"):
            data = chunked.recv(4096)
            if not data:
                break
            answer += data
    except OSError:
        pass
    check("a 2 MiB chunked body gets 413, naming nothing of the server's insides",
          answer.startswith(b"HTTP/1.1 413") and b"NIO" not in answer and b"request body over 1 MiB" in answer, answer[:200].decode(errors="replace"))
    watcher.join(60)
    # The server closes it at 30 s; the bound leaves a busy machine its slack.
    check("a request half sent is closed (30 s idle timeout)", bool(closed) and closed[0] <= 40, str(closed))
    check("live studio exits 0 on SIGINT", studio.stop() == 0)
    pinch = Studio("clear-pinch", folder, "live-pinch")
    two = next(rows for rows in traces("Sources/SpringTune/Resources/Traces/pinch/traces.csv").values() if len({r[4] for r in rows}) > 1)
    with socket(pinch.url) as ws:
        frames, done = play(ws, two)
        ok, detail = same_frames(pinch.url, frames, done)
        check("live clear-pinch with two pointers equals its replay to 1e-9", done is not None and ok, detail)
    pinch.stop()


def host_test(folder):
    session = os.path.join(folder, "host", "s.sqlite")
    os.makedirs(os.path.dirname(session), exist_ok=True)
    p = subprocess.Popen([BIN, "studio", "--preset", "evernote", "--no-browser", "--port", "0", "--host", "127.0.0.2", "--session", session],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = p.stdout.readline().strip()
    check("studio --host 127.0.0.2 names that address", line.startswith("studio: http://127.0.0.2:"), line)
    if line.startswith("studio: http://127.0.0.2:"):
        host, _ = parts(line.split(" ", 1)[1])
        try:
            urllib.request.urlopen(f"http://{host}/api/preset", timeout=10)
            status = 200
        except urllib.error.HTTPError as e:
            status = e.code
        check("studio --host: the API without the token is 401", status == 401, str(status))
    p.send_signal(2)
    p.wait(60)


def percentile(values, q):
    """The q-quantile of `values` (nearest rank)."""
    v = sorted(values)
    return v[min(len(v) - 1, max(0, round(q * len(v)) - 1))] if v else float("nan")


def touch_gesture(driver, points):
    """One finger along `points` (CSS px), a sample every 1/120 s sent at its own deadline
    straight to the page's DevTools socket (through chromedriver each command waits for its
    answer: about 25 a second), then lifted; returns the rate the samples went at (Hz)."""
    addr = driver.capabilities["goog:chromeOptions"]["debuggerAddress"]
    with urllib.request.urlopen(f"http://{addr}/json", timeout=10) as r:
        target = next(p["webSocketDebuggerUrl"] for p in json.load(r) if p["type"] == "page")
    with connect(target, max_size=None, open_timeout=10) as devtools:
        def touch(n, kind, at):
            devtools.send(json.dumps({"id": n, "method": "Input.dispatchTouchEvent",
                                      "params": {"type": kind, "touchPoints": [{"x": at[0], "y": at[1]}] if at else []}}))
        start = time.perf_counter()
        touch(1, "touchStart", points[0])
        for k, p in enumerate(points[1:], 1):
            time.sleep(max(0, start + k / 120 - time.perf_counter()))
            touch(k + 1, "touchMove", p)
        sent_rate = (len(points) - 1) / (time.perf_counter() - start)
        time.sleep(max(0, start + len(points) / 120 - time.perf_counter()))
        touch(len(points) + 1, "touchEnd", None)
        answered = 0
        while answered < len(points) + 1:
            answered += "id" in json.loads(devtools.recv(timeout=30))
    return sent_rate


def touch_latency(driver, label, count, sent_rate):
    """The page's own measures of each sample, printed: event to drawn, and its two parts, the
    browser's delivery (event time to the page's handler: Chromium's input pipeline, which no page
    changes) and arrival to drawn (what the page adds); checks each sample was drawn in the
    first display frame after it reached the page (arrival to drawn p95 within one display frame
    + 4 ms)."""
    stats = driver.execute_script("return studioPage.live.stats")
    lat, arrivals, deliveries, gaps = stats["latencies"], stats["arrivals"], stats["deliveries"], stats["intervals"]
    check(f"live {label}: every sample is drawn", len(lat) > 60 and not stats["sent"] and not stats["waiting"],
          "%d drawn, %d unanswered, %d not drawn" % (len(lat), len(stats["sent"]), len(stats["waiting"])))
    frame = percentile(gaps, 0.5)
    skipped = sum(1 for g in gaps if g > 1.5 * frame)
    p95 = percentile(arrivals, 0.95)
    print("live in Chromium (%s), %d samples sent at %.0f Hz: event to drawn p50 %.1f ms, p95 %.1f ms (the browser's delivery "
          "p50 %.1f ms, p95 %.1f ms; arrival to drawn p50 %.1f ms, p95 %.1f ms, max %.1f ms); display frame %.1f ms (p50), "
          "%d of %d frames late by half a frame or more"
          % (label, count, sent_rate, percentile(lat, 0.5), percentile(lat, 0.95), percentile(deliveries, 0.5), percentile(deliveries, 0.95),
             percentile(arrivals, 0.5), p95, max(arrivals or [0]), frame, skipped, len(gaps)), flush=True)
    check(f"live {label}: arrival to drawn p95 within one display frame + 4 ms", p95 <= frame + 4, f"p95 {p95:.1f} ms, frame {frame:.1f} ms")


def same_as_replay(driver, url, label):
    """The page's frames of the last gesture against POST /api/replay of its recording: the
    engine's numbers to 1e-9 (relative, absolute below 1) and the shapes to the replay's 0.01 pt."""
    done = driver.execute_script("return studioPage.live.done")
    run = driver.execute_script("return studioPage.live.run.frames.map((f) => [f.t, f.values, f.shapes])")
    replay = post(url, "/api/replay", {"params": done["params"], "traces": [done["trace"]], "engine": True})["replays"][0]
    native, drawn = replay["engine"]["frames"], replay["frames"]
    common = min(len(run), len(native))
    worst = max((abs(a - b) / max(1, abs(b)) for (t, values, _), want in zip(run, native) for a, b in zip([t] + values, want)), default=float("inf"))
    check(f"live {label}: the page's {common} frames equal the native engine's through the recording to 1e-9",
          common > 60 and all(len(r[1]) + 1 == len(n) for r, n in zip(run, native)) and worst <= 1e-9, f"largest difference {worst}, {len(run)} page frames, {len(native)} native")
    shapes = max((abs(p - q) for (_, _, mine), theirs in zip(run, drawn) for s, r in zip(mine, theirs["shapes"]) for p, q in zip(s, r)), default=float("inf"))
    check(f"live {label}: the page's shapes are the replay's (0.01 pt)", shapes <= 0.005 + 1e-9, f"largest difference {shapes}")


def touch_test(driver, folder):
    """Synthetic touches at 120 Hz on the phone (DevTools protocol): the engine module in the
    page draws each sample in the next display frame, with the server's socket delayed by 100 ms
    too; the page's frames are the replay's of the recording it makes, which joins the trace
    list with its "in traces" box."""
    studio = Studio("tweetbot", folder, "live-touch")
    driver.get(studio.url)
    if not wait(driver, lambda: ready(driver) and driver.execute_script("return document.body.dataset.engine") == "ready"):
        check("live touch page ready with its engine module", False, driver.execute_script("return document.body.dataset.engine || ''"))
        return
    driver.execute_script("const b = document.getElementById('live'); b.checked = true; b.dispatchEvent(new Event('change'));")
    box = driver.execute_script("const r = document.querySelector('canvas.stage').getBoundingClientRect(); return [r.left, r.top, r.width, r.height];")
    x0, y0 = box[0] + box[2] / 2, box[1] + box[3] / 4
    points = [(x0 + 0.4 * k, y0 + 1.2 * k) for k in range(120)]
    sent_rate = touch_gesture(driver, points)
    done = wait(driver, lambda: driver.execute_script("return document.body.dataset.liveDone || ''").startswith("live-"))
    drawn = int(driver.execute_script("return document.body.dataset.liveFrames || '0'"))
    check("live touches in Chromium make a recording", done, driver.find_element("id", "error").text)
    check("live touches in Chromium are stepped by the page's engine", driver.execute_script("return document.body.dataset.liveEngine") == "page")
    check("live touches in Chromium draw frames", drawn > 60, str(drawn))
    time.sleep(0.1)
    touch_latency(driver, "page engine", len(points) + 1, sent_rate)
    same_as_replay(driver, studio.url, "page engine")
    # The page's clock runs through the live frames: the time shown is past the gesture's start.
    shown = float(driver.find_element("id", "time").text.split(" ")[0])
    check("live the page plays the gesture", shown > 0.2, str(shown))
    time.sleep(0.3)
    driver.save_screenshot(os.path.join(OUT, "live.png"))
    # The server off the path: every message to the live socket leaves 100 ms late.
    driver.execute_script("""const send = WebSocket.prototype.send;
      WebSocket.prototype.send = function (data) { setTimeout(() => send.call(this, data), 100); };""")
    sent_rate = touch_gesture(driver, [(x0 - 0.3 * k, y0 + 1.5 * k) for k in range(120)])
    done = wait(driver, lambda: driver.execute_script("return document.body.dataset.liveDone || ''") == "live-2")
    check("live with the socket delayed by 100 ms the gesture is still recorded", done, driver.find_element("id", "error").text)
    touch_latency(driver, "socket delayed by 100 ms", 121, sent_rate)
    same_as_replay(driver, studio.url, "socket delayed by 100 ms")
    # The same without the module (the server's frames drawn): the delay is on that path.
    driver.execute_script("studioPage.live.module = null")
    touch_gesture(driver, [(x0 + 0.2 * k, y0 + 1.4 * k) for k in range(120)])
    done = wait(driver, lambda: driver.execute_script("return document.body.dataset.liveDone || ''") == "live-3")
    stats = driver.execute_script("return studioPage.live.stats")
    served = percentile(stats["arrivals"], 0.5)
    print(f"live in Chromium (the server's frames, socket delayed by 100 ms): arrival to drawn p50 {served:.1f} ms, p95 {percentile(stats['arrivals'], 0.95):.1f} ms", flush=True)
    check("live without the module the server's frames are drawn, 100 ms later (the delay works)",
          done and driver.execute_script("return document.body.dataset.liveEngine") == "server" and served >= 100, f"p50 {served:.1f} ms")
    # The recording joins the traces: the box adds it, the trace list shows it, GET /api/preset lists it.
    driver.find_element("css selector", "#recordings li input[type=checkbox]").click()
    listed = wait(driver, lambda: driver.execute_script("return [...document.getElementById('trace').options].some((o) => o.value === 'live-1')"))
    check("live a recording added with its box is in the trace list", listed)
    time.sleep(1)  # the panels measured again over the new traces
    check("live the page shows no error after it", not driver.find_element("id", "error").text, driver.find_element("id", "error").text)
    traces = [t["id"] for t in json.loads(get(studio.url, "/api/preset"))["traces"]]
    check("live GET /api/preset lists the added recording", traces[-1:] == ["live-1"], str(traces[-3:]))
    studio.stop()


def raw_socket(url):
    """A WebSocket opened by hand (no reader thread): what a client that stops reading is."""
    host, tok = parts(url)
    name, port = host.split(":")
    raw = sockets.create_connection((name, int(port)), timeout=10)
    key = base64.b64encode(os.urandom(16)).decode()
    raw.sendall((f"GET /api/live?token={tok} HTTP/1.1\r\nHost: {host}\r\nOrigin: http://{host}\r\nUpgrade: websocket\r\n"
                 f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
    head = b""
    while b"\r\n\r\n" not in head:
        head += raw.recv(1)
    return raw, head.startswith(b"HTTP/1.1 101")


def frame(text):
    """One masked text frame."""
    data, mask = text.encode(), os.urandom(4)
    n = len(data)
    size = bytes([0x80 | n]) if n < 126 else bytes([0x80 | 126]) + n.to_bytes(2, "big") if n < 65536 else bytes([0x80 | 127]) + n.to_bytes(8, "big")
    return bytes([0x81]) + size + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data))


def rss_mb(pid):
    """Resident memory (MB) of the studio's server: `pid`'s child if it has one, else `pid` itself."""
    child = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True).stdout.split()
    with open(f"/proc/{(child or [pid])[0]}/status") as f:
        return next(int(line.split()[1]) for line in f if line.startswith("VmRSS")) / 1024


def crowd_test(folder):
    """Many sockets at once each get their gesture answered; a client that sends gestures and
    never reads is held back by the socket (the server stops reading it) instead of growing
    the server, and the others go on (issue 39)."""
    studio = Studio("tweetbot", folder, "crowd")
    url = studio.url
    rows = next(iter(traces("Sources/SpringTune/Resources/Traces/flick/traces.csv").values()))
    done = []
    def one():
        try:
            with socket(url) as ws:
                done.append(play(ws, rows)[1] is not None)
        except Exception:
            done.append(False)
    crowd = [threading.Thread(target=one) for _ in range(32)]
    for t in crowd:
        t.start()
    for t in crowd:
        t.join(120)
    check("live 32 sockets at once each get their gesture's done", done.count(True) == 32, f"{done.count(True)} of 32")
    raw, upgraded = raw_socket(url)
    check("live a hand-made socket is upgraded", upgraded)
    before = rss_mb(studio.process.pid)
    gesture = [frame(json.dumps(m)) for m in messages(rows)]
    sent, start = 0, time.time()
    raw.settimeout(5)
    try:
        while time.time() - start < 20:
            for f in gesture:
                raw.sendall(f)
                sent += 1
    except OSError:
        pass  # the server stopped reading: its answers are not read
    after = rss_mb(studio.process.pid)
    print(f"live a client that never reads: {sent} messages taken in {time.time() - start:.1f} s; server {before:.0f} MB before, {after:.0f} MB after")
    check("live a client that never reads does not grow the server past 200 MB", after < 200, f"{after:.0f} MB")
    with socket(url) as ws:
        check("live another socket goes on beside it", play(ws, rows)[1] is not None)
    raw.close()
    studio.stop()


def live_test(driver, folder):
    socket_test(folder)
    host_test(folder)
    crowd_test(folder)
    touch_test(driver, folder)
