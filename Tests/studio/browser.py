#!/usr/bin/env python3
"""The studio's page in a real browser (headless Chromium through Selenium).

Starts `$SPRINGTUNE studio` (port 0, a temporary session), opens the page it prints, waits
for the first draw, moves the damping slider and checks that the metrics and the canvas
change, saves a screenshot to $OUT/studio.png (OUT defaults to out/test/studio), stops the
studio with SIGINT (exit 0 expected); answers five learn rounds through the page (worst buttons),
undoes one, answers again, exports the best and loads the export with `presets show` (a
screenshot in round mode in $OUT/learn.png); then checks that every bundled preset's page reaches
"ready" with a canvas that is not blank (a screenshot of each at 0.3 s in $OUT/NAME.png). Prints `ok NAME` / `FAIL NAME` lines and exits 1
when any check failed. Run from the package root (the binary finds Presets/ there).
"""
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

BIN = os.path.abspath(os.environ.get("SPRINGTUNE", ".build/release/springtune"))
OUT = os.environ.get("OUT", "out/test/studio")
TIMEOUT = 60  # s: a loaded machine replays slowly
failures = 0


def check(name, condition, detail=""):
    global failures
    print(("ok   " if condition else "FAIL ") + name + ("" if condition or not detail else ": " + detail), flush=True)
    if not condition:
        failures += 1


class Studio:
    """`springtune studio --preset NAME` on a free port with a throw-away session."""

    def __init__(self, preset, folder):
        self.session = os.path.join(folder, preset, "s.sqlite")
        os.makedirs(os.path.dirname(self.session), exist_ok=True)
        self.process = subprocess.Popen(
            [BIN, "studio", "--preset", preset, "--no-browser", "--port", "0", "--session", self.session],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.url = None
        deadline = time.time() + TIMEOUT
        while time.time() < deadline:
            line = self.process.stdout.readline()
            if not line:
                break
            match = re.match(r"studio: (http://127\.0\.0\.1:\d+/\?token=\S+)", line)
            if match:
                self.url = match.group(1)
                break

    def stop(self):
        """SIGINT, then the exit status (None when it did not stop within the timeout)."""
        self.process.send_signal(signal.SIGINT)
        try:
            return self.process.wait(TIMEOUT)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
            return None


def browser():
    options = Options()
    for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1400,900",
                 "--force-device-scale-factor=1"):
        options.add_argument(flag)
    options.binary_location = "/usr/bin/chromium"
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


def wait(driver, condition):
    try:
        WebDriverWait(driver, TIMEOUT, poll_frequency=0.05).until(lambda d: condition())
        return True
    except Exception:
        return False


def ready(driver):
    return driver.execute_script("return document.body.dataset.state") == "ready"


def pixels(driver):
    return driver.execute_script("return document.querySelector('canvas.stage').toDataURL()")


def not_blank(driver):
    """True when the canvas holds some colour other than the frame and the screen."""
    return driver.execute_script("""
        const c = document.querySelector('canvas.stage'), g = c.getContext('2d');
        const d = g.getImageData(0, 0, c.width, c.height).data;
        const plain = new Set(['28,28,30', '242,242,247']);
        for (let i = 0; i < d.length; i += 4) if (!plain.has(d[i] + ',' + d[i + 1] + ',' + d[i + 2])) return true;
        return false;""")


def pause_at(driver, t):
    """Stop the clock at `t` s so that two pictures can be compared."""
    driver.execute_script("""
        const play = document.getElementById('play');
        if (play.textContent === 'pause') play.click();
        const s = document.getElementById('scrub');
        s.value = arguments[0]; s.dispatchEvent(new Event('input'));""", t)
    time.sleep(0.2)  # a few animation frames


def open_page(driver, folder, label):
    """An evernote studio on a session in `folder` with its page loaded (None when it printed no URL)."""
    studio = Studio("evernote", folder)
    check(label + " studio prints its URL", studio.url is not None)
    if studio.url is None:
        studio.stop()
        return None
    driver.get(studio.url)
    check(label + " page reaches ready", wait(driver, lambda: ready(driver)))
    return studio


def damping_test(driver, folder):
    studio = open_page(driver, folder, "evernote")
    if studio is None:
        return
    check("evernote canvas not blank", not_blank(driver))
    metrics = driver.find_element(By.CSS_SELECTOR, ".metrics")
    before_text, before_params = metrics.text, metrics.get_attribute("data-params")
    pause_at(driver, 0.6)
    before_pixels = pixels(driver)
    moved = driver.execute_script("""
        const s = document.querySelector('input[data-axis="damping"]');
        if (!s) return false;
        s.value = s.min; s.dispatchEvent(new Event('input'));
        return true;""")
    check("evernote has a damping slider", moved)
    check("metrics change after the damping slider moves",
          wait(driver, lambda: metrics.text != before_text and metrics.get_attribute("data-params") != before_params))
    check("data-params holds the new damping",
          '"damping":0.5' in (metrics.get_attribute("data-params") or ""), metrics.get_attribute("data-params"))
    pause_at(driver, 0.6)
    check("canvas changes after the damping slider moves", pixels(driver) != before_pixels)
    driver.find_element(By.ID, "add").click()
    check("add candidate makes a second panel",
          wait(driver, lambda: len(driver.find_elements(By.CSS_SELECTOR, "canvas.stage")) == 2 and ready(driver)))
    first = metrics.get_attribute("data-params")
    driver.execute_script("""
        const s = document.querySelector('input[data-axis="frequency"]');
        s.value = s.max; s.dispatchEvent(new Event('input'));""")
    second = driver.find_elements(By.CSS_SELECTOR, ".metrics")[1]
    check("the sliders edit the selected (new) panel only",
          wait(driver, lambda: '"frequency":4' in (second.get_attribute("data-params") or ""))
          and metrics.get_attribute("data-params") == first, second.get_attribute("data-params"))
    driver.find_element(By.ID, "copy-swiftui").click()
    swiftui = driver.find_element(By.ID, "copy").get_attribute("value")
    check("copy as SwiftUI gives response = 1/frequency, dampingFraction = damping",
          swiftui == ".spring(response: 0.25, dampingFraction: 0.5)", swiftui)
    driver.find_element(By.ID, "copy-json").click()
    text = driver.find_element(By.ID, "copy").get_attribute("value")
    check("copy as preset JSON splits spring and params",
          json.loads(text) == {"spring": {"damping": 0.5, "frequency": 4}, "params": {"boundaryResistance": 10}}, text)
    driver.find_element(By.ID, "add").click()
    driver.find_element(By.ID, "add").click()
    check("at most 4 panels (add candidate then disabled)",
          wait(driver, lambda: len(driver.find_elements(By.CSS_SELECTOR, "canvas.stage")) == 4 and ready(driver))
          and not driver.find_element(By.ID, "add").is_enabled())
    os.makedirs(OUT, exist_ok=True)
    shot = os.path.join(OUT, "studio.png")
    driver.find_element(By.ID, "play").click()
    check("screenshot saved", driver.save_screenshot(shot), shot)
    # Animation rate with four candidates playing: the intervals between animation frames over 2 s.
    gaps = driver.execute_async_script("""
        const done = arguments[arguments.length - 1], gaps = [];
        let last = null;
        function tick(t) {
            if (last !== null) gaps.push(t - last);
            last = t;
            if (gaps.length < 120) requestAnimationFrame(tick); else done(gaps);
        }
        requestAnimationFrame(tick);""")
    gaps.sort()
    p50, p95 = gaps[len(gaps) // 2], gaps[int(0.95 * len(gaps)) - 1]
    print(f"animation with 4 candidates: frame interval p50 {p50:.1f} ms, p95 {p95:.1f} ms ({1000 / p50:.0f} fps)")
    check("four candidates animate (frame interval p50 under 50 ms)", p50 < 50, f"{p50:.1f} ms")
    check("evernote studio exits 0 on SIGINT", studio.stop() == 0)


def round_number(driver):
    """The round `#round` shows (None in free sliders mode)."""
    match = re.fullmatch(r"round (\d+)", driver.find_element(By.ID, "round").text)
    return int(match.group(1)) if match else None


def learned(driver, round_, count):
    """True once the page shows round `round_` with its candidates drawn and `count` choices."""
    return driver.execute_script("""
        const s = document.body.dataset;
        return s.learn === 'idle' && s.state === 'ready' && document.getElementById('round').textContent === 'round ' + arguments[0]
            && document.getElementById('best-choices').dataset.count === String(arguments[1])
            && document.querySelectorAll('.panel').length === learn.open.candidates.length
            && [...document.querySelectorAll('.metrics[data-params]')].length === learn.open.candidates.length;""",
        round_, count)


def worst(driver, i):
    """Clicks the `i`-th panel's worst button (cycling over the panels)."""
    buttons = driver.find_elements(By.CSS_SELECTOR, ".panel .worst")
    buttons[i % len(buttons)].click()


def learn_test(driver, folder):
    studio = open_page(driver, os.path.join(folder, "learn"), "learn:")
    if studio is None:
        return
    check("learn: no best box before any choice", not driver.find_element(By.ID, "best").is_displayed())
    driver.find_element(By.ID, "start-round").click()
    check("learn: start a round shows round 1 with 4 candidates, 0 choices", wait(driver, lambda: learned(driver, 1, 0)))
    shown = driver.execute_script("""
        return {trace: document.getElementById('trace').value, open: learn.open,
                panels: [...document.querySelectorAll('.panel .metrics')].map((m) => JSON.parse(m.dataset.params))};""")
    check("learn: the trace picker shows the round's trace", shown["trace"] == shown["open"]["trace"], shown["trace"])
    check("learn: the panels show the candidates' parameters",
          shown["panels"] == [c["params"] for c in shown["open"]["candidates"]], json.dumps(shown["panels"]))
    check("learn: the sliders are off in round mode",
          not driver.find_element(By.CSS_SELECTOR, 'input[data-axis="damping"]').is_enabled())
    rounds = [1]
    for i in range(1, 6):
        if i == 3:  # the animation keeps going while the page waits for the answer and the next round
            gaps = driver.execute_async_script("""
                const done = arguments[arguments.length - 1], gaps = [], before = learn.open.round;
                let last = null;
                function tick(t) {
                    if (last !== null) gaps.push(t - last);
                    last = t;
                    const drawn = document.querySelectorAll('.metrics[data-params]').length === learn.open.candidates.length;
                    if (learn.open.round !== before && document.body.dataset.learn === 'idle' && drawn) done(gaps);
                    else requestAnimationFrame(tick);
                }
                document.querySelector('.panel .worst').click();
                requestAnimationFrame(tick);""")
            print(f"animation while an answer and the next round load: {len(gaps)} frames, longest gap {max(gaps or [0]):.1f} ms")
            check("learn: animation runs while the answer, the next round and its replays load (gaps under 250 ms)",
                  len(gaps) >= 1 and max(gaps) < 250, f"{len(gaps)} frames, longest {max(gaps or [0]):.0f} ms")
        else:
            worst(driver, i)
        check(f"learn: answer {i} opens the next round",
              wait(driver, lambda: learned(driver, rounds[-1] + 1, i)), driver.find_element(By.ID, "error").text)
        rounds.append(round_number(driver))
    check("learn: the round number advanced once per answer", rounds == [1, 2, 3, 4, 5, 6], str(rounds))
    check("learn: the best box shows 5 choices", driver.find_element(By.ID, "best-choices").text == "5 choices",
          driver.find_element(By.ID, "best-choices").text)
    driver.find_element(By.ID, "undo").click()
    check("learn: undo gives 4 choices and round 5 again", wait(driver, lambda: learned(driver, 5, 4)),
          f"round {round_number(driver)}, {driver.find_element(By.ID, 'best-choices').text}")
    worst(driver, 1)
    check("learn: answering again gives round 6 and 5 choices", wait(driver, lambda: learned(driver, 6, 5)))
    best = driver.execute_script("return learn.best")
    utility = driver.find_element(By.ID, "best-utility").text
    check("learn: the best box gives the utility to 2 significant digits",
          re.fullmatch(r"utility [+−]\d+(\.\d+)? ± \d+(\.\d+)? vs the preset", utility) is not None, utility)
    check("learn: the best box lists the best set's values with units",
          f"frequency = {float(best['params']['frequency']):.4g} Hz" in driver.find_element(By.ID, "best-params").text,
          driver.find_element(By.ID, "best-params").text)
    map_shown = driver.find_element(By.ID, "map").is_displayed()
    check("learn: the utility map is shown exactly when /api/best has one", map_shown == bool(best.get("map")),
          f"shown {map_shown}, map {'present' if best.get('map') else 'absent'}")
    if best.get("map"):
        colours = driver.execute_script("""
            const c = document.getElementById('map'), d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
            const seen = new Set();
            for (let i = 0; i < d.length; i += 4) if (d[i + 3] === 255) seen.add(d[i] + ',' + d[i + 1] + ',' + d[i + 2]);
            return seen.size;""")
        check("learn: the utility map is drawn (cells of many colours)", colours >= 20, f"{colours} colours")
    else:
        print("note: this studio's /api/best has no utility map; learn.png shows none")
    driver.set_window_size(1400, 1200)
    driver.execute_script("window.scrollTo(0, 0)")
    time.sleep(0.3)
    check("learn: screenshot saved", driver.save_screenshot(os.path.join(OUT, "learn.png")))
    driver.set_window_size(1400, 900)
    name = driver.find_element(By.ID, "export-name")
    name.clear()
    name.send_keys(".hidden")
    driver.find_element(By.ID, "export").click()
    check("learn: a bad export name is one line in #error",
          wait(driver, lambda: "name" in driver.find_element(By.ID, "error").text)
          and driver.find_element(By.ID, "export-path").text == "", driver.find_element(By.ID, "error").text)
    name.clear()
    name.send_keys("learned-5")
    driver.find_element(By.ID, "export").click()
    check("learn: export this shows a path", wait(driver, lambda: driver.find_element(By.ID, "export-path").text != ""))
    path = driver.find_element(By.ID, "export-path").text
    check("learn: the exported file exists as exports/learned-5.json",
          os.path.isfile(path) and path.endswith(os.path.join("exports", "learned-5.json")), path)
    show = subprocess.run([BIN, "presets", "show", path], capture_output=True, text=True)
    check("learn: presets show PATH exits 0", show.returncode == 0, show.stderr.strip())
    provenance = json.load(open(path)).get("provenance", {}) if os.path.isfile(path) else {}
    check("learn: the export's provenance names the session and 5 choices",
          provenance.get("session") in (studio.session, os.path.abspath(studio.session)) and provenance.get("choices") == 5,
          json.dumps(provenance)[:300])
    driver.find_element(By.ID, "show-best").click()
    check("learn: show best leaves round mode with one panel of the best set",
          wait(driver, lambda: round_number(driver) is None and len(driver.find_elements(By.CSS_SELECTOR, ".panel")) == 1
               and json.loads(driver.find_element(By.CSS_SELECTOR, ".panel .metrics").get_attribute("data-params") or "null")
               == best["params"]))
    check("learn: studio exits 0 on SIGINT", studio.stop() == 0)


def presets():
    """The names `presets list` prints under its header line."""
    listed = subprocess.run([BIN, "presets", "list"], capture_output=True, text=True, check=True).stdout
    return [line.split()[0] for line in listed.splitlines()[1:] if line.strip()]


def every_preset(driver, folder):
    for name in presets():
        studio = Studio(name, folder)
        if studio.url is None:
            check(name + " page ready, canvas not blank", False, "no URL line: " + studio.process.stderr.read()[:300])
            studio.stop()
            continue
        driver.get(studio.url)
        good = wait(driver, lambda: ready(driver)) and wait(driver, lambda: not_blank(driver))
        error = driver.find_element(By.ID, "error").text
        check(name + " page ready, canvas not blank", good, error)
        pause_at(driver, 0.3)
        driver.save_screenshot(os.path.join(OUT, name + ".png"))
        check(name + " studio exits 0 on SIGINT", studio.stop() == 0)


def main():
    driver = browser()
    try:
        with tempfile.TemporaryDirectory() as folder:
            damping_test(driver, folder)
            learn_test(driver, folder)
            every_preset(driver, folder)
    finally:
        driver.quit()
    print(f"{failures} failed")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
