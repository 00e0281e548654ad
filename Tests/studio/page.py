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
