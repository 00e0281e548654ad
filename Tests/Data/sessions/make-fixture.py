#!/usr/bin/env python3
"""Writes the session fixture `recordings-v4.sqlite` with a studio binary from before the
recordings became a GRDB record (schema v4: a sample's phase stored as its index in
TouchPhase.allCases), and `recordings-v4.json`, what that binary answered for them
(GET /api/recordings and GET /api/recordings.csv). SessionFixtureTests opens the file with the
current SessionStore (migration v5 rewrites the phases by name) and checks that the recordings
come back the same.

Made once, by hand, with the binaries of commit c0a2995:
  out/test/studio-venv/bin/python Tests/Data/sessions/make-fixture.py OLD/springtune
(OLD/springtune-studio beside it; run from the repository root, which has Presets/).
"""
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import urllib.request

from websockets.sync.client import connect

HERE = os.path.dirname(os.path.abspath(__file__))
BIN = sys.argv[1]


def request(url, path, method="GET", body=None):
    host, token = re.match(r"http://([^/]+)/\?token=(\w+)", url).groups()
    data = json.dumps(body).encode() if body is not None else None
    r = urllib.request.Request(f"http://{host}{path}", data=data, method=method,
                               headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"})
    with urllib.request.urlopen(r, timeout=60) as answer:
        return answer.read()


def gesture(ws, samples, opening):
    ws.send(json.dumps(opening))
    done = None
    for k, (t, phase, pointers) in enumerate(samples):
        ws.send(json.dumps({"t": t, "phase": phase, "pointers": [{"id": i, "x": x, "y": y} for i, x, y in pointers]}))
        for _ in range(2 if k == len(samples) - 1 else 1):
            answer = json.loads(ws.recv(timeout=30))
            if "done" in answer:
                done = answer
    return done["trace"]


def main():
    folder = tempfile.mkdtemp()
    session = os.path.join(folder, "s.sqlite")
    studio = subprocess.Popen([BIN, "studio", "--preset", "clear-pinch", "--no-browser", "--port", "0", "--session", session],
                              stdout=subprocess.PIPE, text=True)
    url = re.match(r"studio: (\S+)", studio.stdout.readline()).group(1)
    host, token = re.match(r"http://([^/]+)/\?token=(\w+)", url).groups()
    with connect(f"ws://{host}/api/live?token={token}", origin=f"http://{host}") as ws:
        # A pinch open with two fingers: every phase the page sends (began, moved, ended).
        pinch = [(10 + k / 60, "began" if k == 0 else ("ended" if k == 30 else "moved"),
                  [(0, 195 - 2 * k, 400 - 3 * k), (1, 195 + 2 * k, 420 + 3 * k)]) for k in range(31)]
        first = gesture(ws, pinch, {"screen": [390, 844], "dpr": 3})
        # One finger, cancelled by the system: the last phase of the list.
        drag = [(20 + k / 120, "began" if k == 0 else ("cancelled" if k == 24 else "moved"), [(0, 100 + k, 300 + 0.5 * k)]) for k in range(25)]
        second = gesture(ws, drag, {"screen": [390, 844], "dpr": 2})
    request(url, f"/api/recordings/{first}", "POST", {"intent": "create", "used": True})
    answers = {"recordings": json.loads(request(url, "/api/recordings")), "csv": request(url, "/api/recordings.csv").decode(),
               "ids": [first, second], "version": subprocess.run([BIN, "--version"], capture_output=True, text=True).stdout.strip()}
    studio.send_signal(signal.SIGINT)
    studio.wait(timeout=60)
    shutil.copy(session, os.path.join(HERE, "recordings-v4.sqlite"))
    with open(os.path.join(HERE, "recordings-v4.json"), "w") as f:
        json.dump(answers, f, indent=1)
        f.write("\n")
    shutil.rmtree(folder)
    print("wrote recordings-v4.sqlite and recordings-v4.json with", answers["version"])


main()
