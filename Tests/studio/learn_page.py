"""The learn round through the studio's page (run by browser.py): five rounds answered with the
worst buttons (each round's panels with the intervals of /api/evaluate and the candidates inside
the noise labelled as /api/candidates says), undo, one more answer, the best box and its map,
"export this" loaded by `presets show`, a stale round, "best" and "no difference"; a screenshot
in round mode."""
import json
import os
import re
import subprocess
import time
import urllib.request

from selenium.webdriver.common.by import By

from page import BIN, OUT, TIMEOUT, check, open_page, panel_rows, wait

def round_number(driver):
    """The round `#round` shows (None in free sliders mode)."""
    match = re.fullmatch(r"round (\d+)", driver.find_element(By.ID, "round").text)
    return int(match.group(1)) if match else None


def learned(driver, round_, count):
    """True once the page shows round `round_` with its candidates drawn and `count` choices."""
    return driver.execute_script("""
        const s = document.body.dataset, learn = studioPage.learn;
        return s.learn === 'idle' && s.state === 'ready' && document.getElementById('round').textContent === 'round ' + arguments[0]
            && document.getElementById('best-choices').dataset.count === String(arguments[1])
            && document.querySelectorAll('.panel').length === learn.open.candidates.length
            && [...document.querySelectorAll('.metrics[data-params]')].length === learn.open.candidates.length;""",
        round_, count)


def call(url, method, path, body):
    """The studio's API as another tab would use it, with the token of the page's `url`."""
    base, token = url.split("/?token=")
    request = urllib.request.Request(base + path, data=json.dumps(body).encode(), method=method, headers={
        "Authorization": "Bearer " + token, "Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=TIMEOUT) as answer:
        return json.load(answer)


def shown_intervals(evaluation):
    """How many of an answer's metrics have an interval the page shows (both bounds)."""
    return sum(1 for m, i in evaluation["intervals"].items() if i["lo"] is not None and i["hi"] is not None and m in evaluation["metrics"])


def noise_labels(driver, url):
    """The open round's panels show the intervals of /api/evaluate and label exactly the
    candidates the API says are inside the noise; returns how many are."""
    page = driver.execute_script("""
        return [...document.querySelectorAll('.panel')].map((p) => ({
            params: JSON.parse(p.querySelector('.metrics').dataset.params),
            intervals: [...p.querySelectorAll('.metrics .interval')].map((i) => i.textContent),
            noise: [...p.querySelectorAll('.noise')].map((n) => n.textContent)}));""")
    round_ = call(url, "GET", "/api/candidates?k=4", None)
    evaluated = [call(url, "POST", "/api/evaluate", {"params": p["params"]}) for p in page]
    n = round_["round"]
    check("round %d: each panel shows the intervals /api/evaluate gives" % n,
          all(len(p["intervals"]) == shown_intervals(e) > 0 for p, e in zip(page, evaluated)), json.dumps([p["intervals"] for p in page])[:300])
    check("round %d: an interval reads lo–hi" % n, all("–" in i for p in page for i in p["intervals"]))
    inside = [c["insideNoise"] for c in round_["candidates"]]
    reference = 1 + [c["id"] for c in round_["candidates"]].index(round_["noise"]["candidate"]) if round_["noise"] else None
    check("round %d: the candidates inside the noise are labelled, as the API says" % n,
          [bool(p["noise"]) for p in page] == inside and all(p["noise"] == ["inside the noise of candidate %d" % reference] for p in page if p["noise"]),
          json.dumps({"page": [p["noise"] for p in page], "api": inside}))
    print("     round %d: %d of %d candidates inside the noise of candidate %s on %s" % (
        n, sum(inside), len(inside), reference, round_["noise"] and round_["noise"]["metric"]), flush=True)
    return sum(inside)


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
        return {trace: document.getElementById('trace').value, open: studioPage.learn.open,
                panels: [...document.querySelectorAll('.panel .metrics')].map((m) => JSON.parse(m.dataset.params))};""")
    check("learn: the trace picker shows the round's trace", shown["trace"] == shown["open"]["trace"], shown["trace"])
    check("learn: the panels show the candidates' parameters",
          shown["panels"] == [c["params"] for c in shown["open"]["candidates"]], json.dumps(shown["panels"]))
    check("learn: the sliders are off in round mode",
          not driver.find_element(By.CSS_SELECTOR, 'input[data-axis="damping"]').is_enabled())
    rounds, labelled = [1], noise_labels(driver, studio.url)
    for i in range(1, 6):
        if i == 3:  # the animation keeps going while the page waits for the answer and the next round
            gaps = driver.execute_async_script("""
                const done = arguments[arguments.length - 1], gaps = [], learn = studioPage.learn, before = learn.open.round;
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
        labelled += noise_labels(driver, studio.url)
    check("learn: the round number advanced once per answer", rounds == [1, 2, 3, 4, 5, 6], str(rounds))
    check("learn: some candidate of rounds 1 to 6 is labelled inside the noise", labelled > 0, str(labelled))
    below = lambda: driver.execute_script("""
        const panels = document.getElementById('panels'), best = document.getElementById('best');
        return best.offsetTop >= panels.offsetTop + panels.offsetHeight;""")
    check("learn: at 1400 px the four candidates share one row, the best box below them",
          wait(driver, lambda: panel_rows(driver) == [4] and below()), f"panels per row {panel_rows(driver)}")
    check("learn: the best box shows 5 choices", driver.find_element(By.ID, "best-choices").text == "5 choices",
          driver.find_element(By.ID, "best-choices").text)
    driver.find_element(By.ID, "undo").click()
    check("learn: undo gives 4 choices and round 5 again", wait(driver, lambda: learned(driver, 5, 4)),
          f"round {round_number(driver)}, {driver.find_element(By.ID, 'best-choices').text}")
    worst(driver, 1)
    check("learn: answering again gives round 6 and 5 choices", wait(driver, lambda: learned(driver, 6, 5)))
    best = driver.execute_script("return studioPage.learn.best")
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
    other_answers(driver, studio)
    check("learn: studio exits 0 on SIGINT", studio.stop() == 0)


def other_answers(driver, studio):
    """A round answered in another tab, then "best" and "no difference" (5 choices before)."""
    error = lambda: driver.find_element(By.ID, "error").text
    driver.find_element(By.ID, "start-round").click()
    check("learn: start a round again shows the open round 6", wait(driver, lambda: learned(driver, 6, 5)))
    call(studio.url, "POST", "/api/choices", {"round": 6, "same": True})
    worst(driver, 0)
    check("learn: an answer to a round answered elsewhere is one line in #error, and round 7 shows",
          wait(driver, lambda: learned(driver, 7, 6) and error() != "") and "\n" not in error(), error())
    time.sleep(0.5)
    check("learn: the refused answer's error stays after the new candidates' replays", error() != "")
    driver.find_elements(By.CSS_SELECTOR, ".panel .best")[1].click()
    check("learn: best answers round 7 (round 8, 7 choices) and clears the error",
          wait(driver, lambda: learned(driver, 8, 7) and error() == ""), error())
    driver.find_element(By.ID, "same").click()
    check("learn: no difference answers round 8 (round 9, 8 choices)", wait(driver, lambda: learned(driver, 9, 8)))
    driver.get(studio.url)
    check("learn: a reloaded page shows the best box with 8 choices, free sliders and undo on",
          wait(driver, lambda: driver.find_element(By.ID, "best").is_displayed()
               and driver.find_element(By.ID, "best-choices").text == "8 choices"
               and driver.find_element(By.ID, "undo").is_enabled())
          and round_number(driver) is None)
