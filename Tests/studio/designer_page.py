"""The studio on the designer's terms through its page (run by browser.py, Reference §10.16): free
tweetbot's snapFrequency under "levers", add a target and a confidence under "your objective" (a
confidence of 1.5 refused in #error), answer a round, read the best box's margins and reasons,
its "how sure" and the groups it fails, each panel's intervals and the candidates inside the
noise (against the API's answers), "no difference" says the model could not learn from it, the
session's copy resumes in a second studio, and the `--report` page renders with no network;
screenshots at 1400 px and 390 px."""
import json
import os
import subprocess
import urllib.request

from selenium.webdriver.common.by import By

from page import BIN, OUT, TIMEOUT, Studio, check, ready, wait
from learn_page import call, learned, noise_labels, shown_intervals


def designer_test(driver, folder):
    studio = Studio("tweetbot", folder, name="designer")
    check("designer studio prints its URL", studio.url is not None)
    if studio.url is None:
        studio.stop()
        return
    try:
        driver.set_window_size(1400, 1200)
        driver.get(studio.url)
        check("designer page reaches ready", wait(driver, lambda: ready(driver)))
        levers(driver)
        objective(driver, studio)
        rounds(driver, studio.url)
        sharing(driver, studio, folder)
    finally:
        check("designer studio exits 0 on SIGINT", studio.stop() == 0)


def levers(driver):
    """snapFrequency is listed pinned; freeing it gives it a slider over its whole domain."""
    driver.find_element(By.CSS_SELECTOR, "#levers summary").click()
    box = driver.find_element(By.CSS_SELECTOR, '#levers-rows tr[data-lever="snapFrequency"] .lever-free')
    check("levers list snapFrequency, pinned", not box.is_selected())
    box.click()
    driver.find_element(By.ID, "apply-levers").click()
    slider = lambda: driver.find_elements(By.CSS_SELECTOR, 'input[data-axis="snapFrequency"]')
    check("a freed lever gets a slider", wait(driver, lambda: len(slider()) == 1 and ready(driver)))
    domain = driver.execute_script("return studioPage.preset.axes.find((a) => a.name === 'snapFrequency')")
    check("over its domain, log", domain and domain["min"] == 0.2 and domain["max"] == 20 and domain["log"], str(domain))


def objective(driver, studio):
    """A target the preset does not have, set on the page, is the session's objective."""
    driver.find_element(By.CSS_SELECTOR, "#objective summary").click()
    targets = driver.find_element(By.ID, "objective-targets")
    targets.clear()
    targets.send_keys("settle_time_p95 = 0.8 ± 0.3")
    driver.find_element(By.ID, "apply-objective").click()
    check("the page's target is the session's objective",
          wait(driver, lambda: call(studio.url, "GET", "/api/objective", None)["targets"] == ["settle_time_p95 = 0.8 ± 0.3"]))
    check("the panel's metrics are judged on it (the server's verdicts)", wait(driver, lambda: ready(driver)))
    confidence = driver.find_element(By.ID, "objective-confidence")
    confidence.send_keys("1.5")
    driver.find_element(By.ID, "apply-objective").click()
    error = lambda: driver.find_element(By.ID, "error").text
    check("a confidence of 1.5 is refused in one line", wait(driver, lambda: error() == "confidence must be a number from 0.5 to 0.99 (such as 0.9)"), error())
    confidence.clear()
    confidence.send_keys("0.95")
    driver.find_element(By.ID, "apply-objective").click()
    check("the page's confidence is the session's objective",
          wait(driver, lambda: call(studio.url, "GET", "/api/objective", None)["confidence"] == 0.95 and not error()), error())
    check("the panel is judged again", wait(driver, lambda: ready(driver)))
    driver.execute_script("window.scrollTo(0, 0)")
    check("screenshot designer-levers.png saved", driver.save_screenshot(os.path.join(OUT, "designer-levers.png")))


def rounds(driver, url):
    """A round opens on its trace, near its release; the best box gives margins and reasons."""
    driver.find_element(By.ID, "start-round").click()
    check("round 1 is shown", wait(driver, lambda: learned(driver, 1, 0)))
    opened = driver.execute_script("const {learn} = studioPage; return {trace: learn.open.trace, start: learn.open.start, shown: document.getElementById('trace').value}")
    check("the round's trace is selected", opened["trace"] == opened["shown"], str(opened))
    check("the round starts before its release", opened["start"] >= 0, str(opened))
    noise_labels(driver, url)
    driver.find_elements(By.CSS_SELECTOR, ".panel .worst")[1].click()
    check("round 2 follows the answer", wait(driver, lambda: learned(driver, 2, 1)))
    check("the best box lists its margins", wait(driver, lambda: len(driver.find_elements(By.CSS_SELECTOR, "#best-margins li")) >= 4))
    check("the best box says which round it rests on", "rests on round 1" in driver.find_element(By.ID, "best-why").text,
          driver.find_element(By.ID, "best-why").text)
    noise_labels(driver, url)
    how_sure(driver, url)
    driver.set_window_size(1400, 1500)  # the best box down to its groups
    driver.execute_script("document.getElementById('best').scrollIntoView()")
    os.makedirs(OUT, exist_ok=True)
    check("screenshot designer.png saved", driver.save_screenshot(os.path.join(OUT, "designer.png")))
    driver.set_window_size(1400, 1200)
    driver.find_element(By.ID, "same").click()
    check("'no difference' says the model learned nothing from it",
          wait(driver, lambda: "tie" in driver.find_element(By.ID, "round-note").text and learned(driver, 3, 2)))
    driver.set_window_size(390, 1400)
    check("designer page at 390 px, nothing wider than the window",
          wait(driver, lambda: ready(driver) and driver.execute_script("return document.documentElement.scrollWidth <= window.innerWidth")),
          str(driver.execute_script("return [document.documentElement.scrollWidth, window.innerWidth]")))
    check("screenshot designer-390.png saved", driver.save_screenshot(os.path.join(OUT, "designer-390.png")))
    driver.set_window_size(1400, 1200)


def sharing(driver, studio, folder):
    """GET /api/session.sqlite resumes in a second studio; --report renders with no request."""
    base, token = studio.url.split("/?token=")
    request = urllib.request.Request(base + "/api/session.sqlite", headers={"Authorization": "Bearer " + token})
    copy = os.path.join(folder, "copy", "s.sqlite")
    os.makedirs(os.path.dirname(copy), exist_ok=True)
    with urllib.request.urlopen(request, timeout=TIMEOUT) as answer, open(copy, "wb") as out:
        out.write(answer.read())
    best = call(studio.url, "GET", "/api/best", None)
    second = Studio("tweetbot", folder, name="copy")
    try:
        check("the copy resumes with the same best and choices", second.url is not None
              and call(second.url, "GET", "/api/best", None)["params"] == best["params"]
              and call(second.url, "GET", "/api/best", None)["choices"] == best["choices"])
    finally:
        second.stop()
    report = os.path.join(OUT, "report.html")
    made = subprocess.run([BIN, "studio", "--session", copy, "--report", report], capture_output=True, text=True)
    check("studio --report writes the page", made.returncode == 0 and os.path.exists(report), made.stderr[-300:])
    driver.get("file://" + os.path.abspath(report))
    check("the report draws the best's motion", wait(driver, lambda: driver.execute_script(
        "return document.body.dataset.state === 'ready' && document.querySelectorAll('canvas.stage').length >= 1")))
    fetched = driver.execute_script("return performance.getEntriesByType('resource').map((e) => e.name)")
    check("the report asks for nothing over the network", fetched == [], str(fetched))
    check("the report lists the rounds", "round" in driver.find_element(By.ID, "report").text)
    check("screenshot report.png saved", driver.save_screenshot(os.path.join(OUT, "report.png")))


def how_sure(driver, url):
    """The best box says how sure its constraints are, at the objective's 95 %, and names the
    groups it fails, as GET /api/best gives them; its metrics show their intervals."""
    best = call(url, "GET", "/api/best", None)
    items = lambda id: [e.text for e in driver.find_elements(By.CSS_SELECTOR, "#" + id + " li")]
    check("the best's sure verdicts are judged at the objective's 95 %", best["sure"]["asked"] and best["sure"]["confidence"] == 0.95)
    check("the best box says how sure each constraint is",
          wait(driver, lambda: items("best-sure") == [v["text"] for v in best["sure"]["verdicts"]] and len(items("best-sure")) == 3)
          and "95 %" in driver.find_element(By.ID, "best-sure-note").text, json.dumps(items("best-sure")))
    failing = [g for g in best["groups"] if g["verdict"] == "broken"]
    check("the per-group rows add up to the traces", sum(g["traces"] for g in best["groups"]) == 242, str(sum(g["traces"] for g in best["groups"])))
    groups = driver.find_element(By.ID, "best-groups").text
    check("the best box names the groups the best fails",
          (groups == "fails for %d of %d groups:" % (len(failing), len(best["groups"])) if failing else "every one of" in groups)
          and [t.split(" (")[0] for t in items("best-groups-failing")] == [g["group"] for g in failing][:10], groups + " " + json.dumps(items("best-groups-failing")))
    best_intervals = driver.find_elements(By.CSS_SELECTOR, "#best-metrics .interval")
    check("the best's metrics show their intervals", len(best_intervals) == shown_intervals(best), str(len(best_intervals)))
