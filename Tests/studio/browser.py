#!/usr/bin/env python3
"""The studio's page in a real browser (headless Chromium through Selenium).

Starts `$SPRINGTUNE studio` (port 0, a temporary session), opens the page it prints, waits
for the first draw, moves the damping slider and checks that the metrics and the canvas
change, saves a screenshot to $OUT/studio.png (OUT defaults to out/test/studio); checks what
Reference §10.16 "Seeing" adds (each panel's values, the magnifier of at least 4× over one region in every
panel, frames interpolated between the model's, actual size) and the layout at 1400 and 390 px
in both views with 4 and 1 panels (screenshots $OUT/studio-actual-1400.png, studio-390.png,
studio-390-actual.png); stops the studio with SIGINT (exit 0 expected); shows a broken `==` constraint missed (red, $OUT/equals.png); answers five learn rounds through the page (worst buttons),
undoes one, answers again, exports the best and loads the export with `presets show` (a
screenshot in round mode in $OUT/learn.png); then checks that every bundled preset's page reaches
"ready" with a canvas that is not blank (a screenshot of each at 0.3 s in $OUT/NAME.png). Live touch is
in live_page.py; feel mode, your art and the prototype in feel_page.py. Prints `ok NAME` / `FAIL NAME` lines and exits 1
when any check failed. Run from the package root (the binary finds Presets/ there). The shared
helpers are in page.py, the learn round's test in learn_page.py.
"""
import json
import os
import subprocess
import sys
import tempfile
import time

from selenium.webdriver.common.by import By

import page
from learn_page import learn_test
from designer_page import designer_test
from feel_page import feel_tests
from live_page import live_test
from page import BIN, OUT, Studio, browser, check, drawn, layout_problems, open_page, panel_rows, ready, resize, wait


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
    # The server writes it as `export --format swiftui` does: every parameter, the spring as
    # response = 1/frequency and dampingRatio = damping.
    check("copy as SwiftUI carries every parameter, response = 1/frequency, dampingRatio = damping",
          wait(driver, lambda: "response: 0.25, dampingRatio: 0.5" in driver.find_element(By.ID, "copy").get_attribute("value"))
          and "boundaryResistance" in driver.find_element(By.ID, "copy").get_attribute("value"), swiftui[-400:])
    driver.find_element(By.ID, "copy-json").click()
    copied = lambda: json.loads(driver.find_element(By.ID, "copy").get_attribute("value") or "{}")
    check("copy as preset JSON pins the spring and every parameter",
          wait(driver, lambda: copied().get("spring") == {"damping": 0.5, "frequency": 4}
               and copied().get("params", {}).get("boundaryResistance") == 10), str(copied())[:300])
    driver.find_element(By.ID, "add").click()
    driver.find_element(By.ID, "add").click()
    check("at most 4 panels (add candidate then disabled)",
          wait(driver, lambda: len(driver.find_elements(By.CSS_SELECTOR, "canvas.stage")) == 4 and ready(driver))
          and not driver.find_element(By.ID, "add").is_enabled())
    # At 1400 px four fit in one row with the phones shrunk (to 115 px); at 1300 px they do not,
    # and show full size as two rows of two, not three and one.
    phones = lambda: driver.execute_script(
        "return [...document.querySelectorAll('canvas.stage')].map((c) => c.clientWidth)")
    check("four panels in one row at 1400 px, phones 110 to 190 px wide",
          wait(driver, lambda: panel_rows(driver) == [4] and all(110 <= w < 190 for w in phones())),
          f"panels per row {panel_rows(driver)}, phones {phones()} px")
    driver.set_window_size(1300, 900)
    check("at 1300 px: full-size phones in even rows",
          wait(driver, lambda: panel_rows(driver) == [2, 2] and all(w == 190 for w in phones())),
          f"panels per row {panel_rows(driver)}, phones {phones()} px")
    driver.set_window_size(1400, 900)
    seeing_four(driver)
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
    seeing_one(driver)
    check("evernote studio exits 0 on SIGINT", studio.stop() == 0)


def seeing_shot(driver, name, width, height, t=0.5):
    """$OUT/NAME.png of the window at `width` × `height` px, paused at `t` s, scrolled to the top."""
    resize(driver, width, height)
    driver.execute_script("studioPage.clock.playing = false; document.getElementById('play').textContent = 'play'; studioPage.clock.t = arguments[0]; scrollTo(0, 0)", t)
    drawn(driver)
    os.makedirs(OUT, exist_ok=True)
    check("screenshot " + name + ".png saved", driver.save_screenshot(os.path.join(OUT, name + ".png")))


def seeing_four(driver):
    """Reference §10.16 "Seeing" with the four evernote panels of damping_test (the second at frequency 4 Hz):
    each panel's values, the magnifier (the same region in every panel, at least 4×), frames
    interpolated between the model's, actual size; the layout at 1400 and 390 px in both views
    ($OUT/studio-actual-1400.png, studio-390.png, studio-390-actual.png)."""
    values = driver.execute_script("return [...document.querySelectorAll('.panel .values')].map((v) => v.textContent)")
    check("each panel lists its values with units under its title",
          len(values) == 4 and "frequency 4 Hz" in values[1] and "damping 0.5" in values[1] and "frequency 1 Hz" in values[0]
          and all("boundaryResistance 10" in v for v in values), str(values))
    # A preset with `parameters` (a later server change) gives the units from there.
    driver.execute_script("""
        const {preset, panels} = studioPage;
        preset.parameters = preset.axes.map((a) => ({name: a.name, unit: a.name === 'frequency' ? 'per s' : a.unit, value: a.preset,
                                                      min: a.min, max: a.max, log: a.log, free: true}));
        panels[1].values.dataset.params = '';""")
    drawn(driver)
    text = driver.execute_script("const {preset, panels} = studioPage; const t = panels[1].values.textContent; delete preset.parameters; panels[1].values.dataset.params = ''; return t")
    check("the values take their units from preset.parameters when the preset has them", "frequency 4 per s" in text, text)
    lenses = lambda: driver.execute_script("""
        return [...document.querySelectorAll('.magnifier canvas')].map((c) => ({
            zoom: Number(c.dataset.zoom), phone: Number(c.dataset.phoneZoom), width: c.clientWidth,
            region: (c.dataset.region || '').split(' ').map(Number),
            caption: c.nextElementSibling.textContent}));""")
    seen = lenses()
    screen = driver.execute_script("return studioPage.panels[0].replay.screen")
    region = seen[0]["region"] if seen else []
    check("every panel has a magnifier of at least 4× (CSS px per pt, and against the phone beside it), labelled",
          len(seen) == 4 and all(m["zoom"] >= 4 and m["phone"] >= 4 and m["width"] / m["region"][2] >= 4
                                 and m["caption"].startswith(f"{m['zoom']:g}×") for m in seen), str(seen))
    check("the magnifiers show one region, inside the screen",
          len(region) == 4 and all(m["region"] == region for m in seen) and region[0] >= 0 and region[1] >= 0
          and region[0] + region[2] <= screen[0] and region[1] + region[3] <= screen[1], str([m["region"] for m in seen]))
    # Interpolation: the pair of frames where a shape moves most; halfway, the shapes are the mean.
    mid = driver.execute_script("""
        const {panels, interpolatedFrame} = studioPage, frames = panels[1].replay.frames;
        let k = -1, most = 0;
        for (let j = 0; j + 1 < frames.length; j++) {
            const a = frames[j].shapes, b = frames[j + 1].shapes;
            if (a.length !== b.length) continue;
            for (let i = 0; i < a.length; i++) {
                const d = Math.abs(b[i][1] - a[i][1]) + Math.abs(b[i][0] - a[i][0]);
                if (d > most) { most = d; k = j; }
            }
        }
        if (k < 0) return null;
        const t = (frames[k].t + frames[k + 1].t) / 2, f = interpolatedFrame(frames, t);
        const a = frames[k].shapes, b = frames[k + 1].shapes;
        const mean = f.shapes.every((s, i) => [0, 1, 2, 3].every((j) => Math.abs(s[j] - (a[i][j] + b[i][j]) / 2) < 1e-9) && s[4] === a[i][4]);
        const moved = a.map((s, i) => i).filter((i) => a[i][1] !== b[i][1] || a[i][0] !== b[i][0]);
        const between = moved.length > 0 && moved.every((i) => f.shapes[i][1] !== a[i][1] || f.shapes[i][0] !== a[i][0])
            && moved.every((i) => f.shapes[i][1] !== b[i][1] || f.shapes[i][0] !== b[i][0]);
        const ends = interpolatedFrame(frames, frames[k].t).shapes === frames[k].shapes
            && interpolatedFrame(frames, 1e9).shapes === frames[frames.length - 1].shapes;
        return {k, t, most, tk: frames[k].t, tk1: frames[k + 1].t, mean, between, ends};""")
    check("interpolatedFrame halfway between frames k and k+1: every rectangle the mean, the moved ones at neither frame's place",
          mid is not None and mid["mean"] and mid["between"] and mid["ends"], str(mid))
    if mid is not None:
        pictures = []
        for t in (mid["tk"], mid["t"], mid["tk1"]):
            driver.execute_script("studioPage.clock.playing = false; studioPage.clock.t = arguments[0]", t)
            drawn(driver)
            pictures.append(driver.execute_script("return studioPage.panels[1].canvas.toDataURL()"))
        check("the phone drawn halfway between two frames differs from both frames' pictures",
              pictures[1] != pictures[0] and pictures[1] != pictures[2], f"frames {mid['k']}, {mid['k'] + 1} moved {mid['most']:.2f} pt")
    # Actual size: the phone at its screen size in CSS px, one control on and off.
    phones = lambda: driver.execute_script(
        "return [...document.querySelectorAll('canvas.stage')].map((c) => [c.clientWidth, c.clientHeight])")
    driver.find_element(By.ID, "actual-size").click()
    drawn(driver)
    check("actual size: every phone's canvas is the screen's size in CSS px (1 pt = 1 px)",
          phones() == [screen] * 4, f"{phones()} for a {screen} pt screen")
    check("actual size: the magnifier is 4× the phone beside it", all(m["phone"] == m["zoom"] for m in lenses()), str(lenses()))
    check("actual size at 1400 px: four panels as 2 + 2, nothing overlaps or overflows",
          wait(driver, lambda: panel_rows(driver) == [2, 2]) and not layout_problems(driver),
          f"rows {panel_rows(driver)}, {layout_problems(driver)}")
    seeing_shot(driver, "studio-actual-1400", 1400, 1300)
    resize(driver, 390, 1400)
    check("actual size at 390 px: phones still 1 pt = 1 px, the page no wider than the window (the panels scroll)",
          phones() == [screen] * 4 and not layout_problems(driver), f"{phones()}, {layout_problems(driver)}")
    seeing_shot(driver, "studio-390-actual", 390, 1400)
    driver.find_element(By.ID, "actual-size").click()
    resize(driver, 390, 1400)
    check("fitted at 390 px: four panels one to a row, phone and side side by side, nothing overflows",
          panel_rows(driver) == [1, 1, 1, 1] and not layout_problems(driver) and all(60 <= w <= 190 for w, _ in phones()),
          f"rows {panel_rows(driver)}, phones {phones()}, {layout_problems(driver)}")
    seeing_shot(driver, "studio-390", 390, 1400)
    resize(driver, 1400, 900)
    check("fitted again at 1400 px: four in one row, nothing overflows",
          wait(driver, lambda: panel_rows(driver) == [4]) and not layout_problems(driver) and all(w < 190 for w, _ in phones()),
          f"rows {panel_rows(driver)}, phones {phones()}, {layout_problems(driver)}")


def seeing_one(driver):
    """One panel at 1400 and 390 px in both views: nothing overlaps or overflows."""
    for _ in range(3):
        driver.execute_script("document.querySelectorAll('.panel .remove')[1].click()")
    for width in (1400, 390):
        for actual in (False, True):
            if driver.execute_script("return studioPage.seeing.actualSize") != actual:
                driver.find_element(By.ID, "actual-size").click()
            resize(driver, width, 900)
            size = driver.execute_script("const c = document.querySelector('canvas.stage'); return [c.clientWidth, studioPage.panels[0].replay.screen[0]]")
            check(f"one panel at {width} px, {'actual size' if actual else 'fitted'}: nothing overlaps or overflows, phone {size[0]} px",
                  len(driver.find_elements(By.CSS_SELECTOR, ".panel")) == 1 and not layout_problems(driver)
                  and (size[0] == size[1] if actual else 60 <= size[0] <= 190), str(layout_problems(driver)))
    driver.find_element(By.ID, "actual-size").click()
    resize(driver, 1400, 900)


def equals_test(driver, folder):
    """A broken `==` constraint shows as missed (red): evernote with `overshoot_pt_p95 == 12345`
    added, coloured from the server's verdicts (the page parses no rule); $OUT/equals.png."""
    preset = json.load(open("Presets/evernote.json"))
    preset["name"] = "equals"
    preset["objective"]["constraints"].append("overshoot_pt_p95 == 12345")
    path = os.path.join(folder, "equals.json")
    with open(path, "w") as f:
        json.dump(preset, f)
    studio = Studio(path, folder, name="equals")
    if studio.url is None:
        check("equals studio starts", False, studio.process.stderr.read()[:300])
        studio.stop()
        return
    driver.get(studio.url)
    check("equals page ready", wait(driver, lambda: ready(driver)))
    broken = lambda: driver.execute_script("""
        return [...document.querySelectorAll('.metrics dt.broken')].map((dt) => dt.textContent);""")
    # The panel's metrics and the best box's (the preset's set) both show it, and nothing else.
    check("a broken == constraint shows its metric missed (red)", wait(driver, lambda: set(broken()) == {"overshoot_pt_p95"}), str(broken()))
    colour = driver.execute_script("""
        const dt = document.querySelector('.metrics dt.broken');
        return dt ? getComputedStyle(dt).color : null;""")
    check("the missed metric is drawn in the broken colour", colour is not None and colour != driver.execute_script(
        "return getComputedStyle(document.querySelector('.metrics dt:not(.broken)')).color"), str(colour))
    driver.execute_script("document.querySelector('.metrics dt.broken').scrollIntoView()")
    os.makedirs(OUT, exist_ok=True)
    check("screenshot saved", driver.save_screenshot(os.path.join(OUT, "equals.png")))
    check("equals studio exits 0 on SIGINT", studio.stop() == 0)


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
            equals_test(driver, folder)
            learn_test(driver, folder)
            designer_test(driver, folder)
            live_test(driver, folder)
            feel_tests(driver, folder)
            every_preset(driver, folder)
    finally:
        driver.quit()
    print(f"{page.failures} failed")
    sys.exit(1 if page.failures else 0)


if __name__ == "__main__":
    main()
