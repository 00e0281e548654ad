"""What the studio's browser tests share: the checks' tally, a studio on a throw-away session,
headless Chromium and waiting for the page."""
import os
import re
import signal
import subprocess
import time

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
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

    def __init__(self, preset, folder, name=None):
        """`preset` a bundled name or a path; the session in FOLDER/NAME (NAME: the preset's by default)."""
        self.session = os.path.join(folder, name or preset, "s.sqlite")
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


def panel_rows(driver):
    """How many panels each row of the page holds, top to bottom."""
    return driver.execute_script("""
        const tops = [...document.querySelectorAll(".panel")].map((p) => p.offsetTop);
        return [...new Set(tops)].sort((a, b) => a - b).map((t) => tops.filter((u) => u === t).length);""")


def drawn(driver):
    """Waits for two animation frames, so that the page has drawn what was just set."""
    driver.execute_async_script("""
        const done = arguments[arguments.length - 1];
        requestAnimationFrame(() => requestAnimationFrame(() => done()));""")


def resize(driver, width, height):
    """The window at `width` × `height` px, laid out again (layoutPanels runs a frame after a resize)."""
    driver.set_window_size(width, height)
    wait(driver, lambda: driver.execute_script("return innerWidth") == width)
    drawn(driver)
    drawn(driver)


def layout_problems(driver):
    """What overlaps or overflows on the page: the page wider than the window, a control or (in the
    fitted view) a panel past the window's right edge, a panel's phone and side overlapping, a
    magnifier wider than its side. At actual size a panel may pass the edge: #panels scrolls."""
    return driver.execute_script("""
        const width = document.documentElement.clientWidth, problems = [];
        if (document.documentElement.scrollWidth > width) problems.push('page ' + document.documentElement.scrollWidth + ' px wide in ' + width);
        for (const e of document.querySelectorAll('header > *, #controls > *, #controls fieldset > *'))
            if (!e.hidden && e.getBoundingClientRect().right > width + 0.5) problems.push((e.id || e.tagName) + ' past the right edge');
        const actual = document.body.dataset.view === 'actual';
        document.querySelectorAll('.panel').forEach((panel, k) => {
            const phone = panel.querySelector('canvas.stage').getBoundingClientRect();
            const side = panel.querySelector('.side').getBoundingClientRect();
            const lens = panel.querySelector('.magnifier').getBoundingClientRect();
            if (!actual && panel.getBoundingClientRect().right > width + 0.5) problems.push('panel ' + (k + 1) + ' past the right edge');
            if (phone.left < side.right && side.left < phone.right && phone.top < side.bottom && side.top < phone.bottom)
                problems.push('panel ' + (k + 1) + ': phone and side overlap');
            if (lens.right > side.right + 0.5) problems.push('panel ' + (k + 1) + ': magnifier wider than its side');
        });
        return problems;""")


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
