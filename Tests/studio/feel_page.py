"""Feel mode, your art and the prototype (docs/Reference.md §10.16) in headless Chromium.

Feel mode (`?feel`) at 390 × 844 CSS px, device scale 3, touch: only the phone and the candidate
switch are shown, the canvas backs 3 device pixels per CSS px, the switch picks the best after a
round ($OUT/feel.png). Your art: a PNG chosen in the page is drawn on the photo and is there again
after the studio restarts on its session; a file that is not an image and a PNG whose header says
30000 × 30000 px are refused with one line and leave nothing stored. The prototype
(`studio --session S --prototype p.html`), opened from file:// with the network off: it loads, its
touches draw frames, it requests nothing, and its frames equal `springtune replay --engine` of its
own samples to 1e-9 ($OUT/prototype.png).
"""
import json
import os
import struct
import subprocess
import time
import zlib

from live_page import get, parts, percentile, post, touch_gesture
from page import BIN, OUT, Studio, check, drawn, ready, wait


def png(width, height, rgb):
    """A real PNG of one colour (8-bit RGB)."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    rows = b"".join(b"\0" + bytes(rgb) * width for _ in range(height))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))


def phone_size(driver, width, height, scale):
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": width, "height": height, "deviceScaleFactor": scale, "mobile": True})
    driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 5})


def desktop(driver):
    driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": False})


def colour_at_photo(driver):
    """The first phone's colour (r, g, b) at the centre of the photo (the first shape), the clock
    held at touch-down (the photo on the screen)."""
    driver.execute_script("studioPage.clock.playing = false; studioPage.clock.t = 0;")
    drawn(driver)
    return driver.execute_script("""
        const p = studioPage.panels[0], c = p.canvas, g = c.getContext('2d');
        const f = studioPage.interpolatedFrame(p.replay.frames, studioPage.clock.t), s = f.shapes[0];
        const r = c.getBoundingClientRect(), [w, h] = p.replay.screen, pad = 10, ratio = c.width / r.width;
        const scale = Math.min((r.width - 2 * pad) / w, (r.height - 2 * pad) / h);
        const x = ((r.width - w * scale) / 2 + (s[0] + s[2] / 2) * scale) * ratio, y = ((r.height - h * scale) / 2 + (s[1] + s[3] / 2) * scale) * ratio;
        return Array.from(g.getImageData(Math.round(x), Math.round(y), 1, 1).data.slice(0, 3));""")


def art_test(driver, folder):
    studio = Studio("tweetbot", folder, "art")
    driver.get(studio.url)
    check("art page ready", wait(driver, lambda: ready(driver) and driver.execute_script("return document.body.dataset.art") == "off"))
    files = {"photo@3x.png": png(1170, 876, (0, 200, 0)), "fake.png": b"<html>not an image</html>",
             "huge.png": png(1, 1, (0, 0, 0))[:16] + struct.pack(">II", 30000, 30000) + png(1, 1, (0, 0, 0))[24:]}
    for name, data in files.items():
        with open(os.path.join(folder, name), "wb") as f:
            f.write(data)
    art = driver.find_element("id", "art")
    # The page decodes a file before it sends it (the server's own refusals of these bytes, 415
    # and 400, are StudioImageTests'); either way one line, and nothing stored.
    for name, words in (("fake.png", "fake.png could not be decoded"), ("huge.png", "huge.png could not be decoded")):
        art.send_keys(os.path.join(folder, name))
        shown = wait(driver, lambda: words in driver.find_element("id", "error").text)
        error = driver.find_element("id", "error").text
        check(f"art {name} is refused with one line", shown and "\n" not in error, error)
        check(f"art {name}: nothing stored", json.loads(get(studio.url, "/api/image")) == {"image": None})
    art.send_keys(os.path.join(folder, "photo@3x.png"))
    check("art a PNG chosen in the page is drawn", wait(driver, lambda: driver.execute_script("return document.body.dataset.art") == "on"))
    stored = json.loads(get(studio.url, "/api/image"))["image"]
    check("art the session keeps it at 3 image pixels per pt", stored and stored["width"] == 1170 and stored["scale"] == 3, str(stored))
    time.sleep(0.2)
    check("art the photo shows the image", colour_at_photo(driver) == [0, 200, 0], str(colour_at_photo(driver)))
    session = studio.session
    check("art studio exits 0 on SIGINT", studio.stop() == 0)
    again = Studio("tweetbot", folder, "art")
    driver.get(again.url)
    back = wait(driver, lambda: ready(driver) and driver.execute_script("return document.body.dataset.art") == "on")
    check("art the image survives a restart of the session", back)
    time.sleep(0.2)
    check("art after the restart the photo shows it", colour_at_photo(driver) == [0, 200, 0], str(colour_at_photo(driver)))
    again.stop()
    return session


def feel_test(driver, folder, session):
    """Feel mode on the art session, a round answered first (so the best is a candidate)."""
    studio = Studio("tweetbot", folder, "art")
    host, token = parts(studio.url)
    round_ = json.loads(get(studio.url, "/api/candidates?k=2"))
    post(studio.url, "/api/choices", {"round": round_["round"], "worst": round_["candidates"][0]["id"]})
    phone_size(driver, 390, 844, 3)
    driver.get(studio.url + "&feel")
    good = wait(driver, lambda: ready(driver) and driver.execute_script("return document.querySelectorAll('#feel-switch button').length") == 2)
    check("feel page ready with the preset and the best on its switch", good,
          str(driver.execute_script("return [...document.querySelectorAll('#feel-switch button')].map((b) => b.textContent)")))
    wait(driver, lambda: driver.execute_script("return document.querySelector('.panel.selected canvas.stage').width") == 390 * 3)
    seen = driver.execute_script("""
        const visible = (e) => { const r = e.getBoundingClientRect(); return getComputedStyle(e).display !== 'none' && r.width > 0 && r.height > 0; };
        const c = document.querySelector('.panel.selected canvas.stage').getBoundingClientRect();
        return { others: [...document.querySelectorAll('header h1, #controls, .side, #best, #recordings-box')].filter(visible).length,
                 canvas: [c.width, c.height], backing: document.querySelector('.panel.selected canvas.stage').width, ratio: devicePixelRatio,
                 live: document.body.dataset.live, scroll: document.documentElement.scrollHeight, touch: getComputedStyle(document.body).touchAction };""")
    check("feel shows only the phone and the switch", seen["others"] == 0, str(seen))
    check("feel the phone takes the window's width at the device's pixel ratio", seen["canvas"][0] == 390 and seen["backing"] == 390 * 3 and seen["ratio"] == 3, str(seen))
    check("feel live touch is on, nothing scrolls, the page takes no touch gesture", seen["live"] == "on" and seen["scroll"] <= 844 and seen["touch"] == "none", str(seen))
    names = driver.execute_script("return [...document.querySelectorAll('#feel-switch button')].map((b) => [b.textContent, b.getAttribute('aria-pressed')])")
    check("feel the best is shown first, the preset beside it", names == [["preset", "false"], ["best", "true"]], str(names))
    driver.find_elements("css selector", "#feel-switch button")[0].click()
    check("feel the switch picks the preset", wait(driver, lambda: driver.execute_script("return studioPage.panels[0].el.classList.contains('selected')")))
    box = driver.execute_script("const r = document.querySelector('.panel.selected canvas.stage').getBoundingClientRect(); return [r.left, r.top, r.width, r.height];")
    touch_gesture(driver, [(box[0] + box[2] / 2 + 0.5 * k, box[1] + box[3] / 2 + 2.5 * k) for k in range(60)])
    check("feel a touch is felt and recorded", wait(driver, lambda: (driver.execute_script("return document.body.dataset.liveDone || ''")).startswith("live-")))
    time.sleep(0.4)
    os.makedirs(OUT, exist_ok=True)
    driver.save_screenshot(os.path.join(OUT, "feel.png"))
    desktop(driver)
    studio.stop()


def prototype_test(driver, folder, session):
    out = os.path.join(folder, "p.html")
    made = subprocess.run([BIN, "studio", "--session", session, "--prototype", out], capture_output=True, text=True)
    check("prototype written", made.returncode == 0 and made.stdout.strip() == f"prototype: {out}", made.stdout + made.stderr)
    phone_size(driver, 390, 844, 3)
    driver.execute_cdp_cmd("Network.enable", {})
    driver.execute_cdp_cmd("Network.emulateNetworkConditions", {"offline": True, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
    driver.get("file://" + out)
    good = wait(driver, lambda: ready(driver))
    check("prototype loads from file:// with the network off", good, driver.find_element("id", "error").text)
    names = driver.execute_script("return [...document.querySelectorAll('#feel-switch button')].map((b) => b.textContent)")
    check("prototype the switch holds the preset, the best and the open round's candidates", names[:2] == ["preset", "best"] and len(names) >= 2, str(names))
    check("prototype the image is drawn on the photo", driver.execute_script("return !!document.body && prototypePage.data.image !== null"))
    box = driver.execute_script("const r = document.querySelector('canvas.stage').getBoundingClientRect(); return [r.left, r.top, r.width, r.height];")
    touch_gesture(driver, [(box[0] + box[2] / 2 - 0.4 * k, box[1] + box[3] / 2 + 3 * k) for k in range(60)])
    time.sleep(0.5)
    frames = driver.execute_script("return prototypePage.run.frames.map((f) => [f.t, ...f.values])")
    samples = driver.execute_script("return prototypePage.samples.map((s) => [s.t, s.x, s.y, s.phase])")
    requests = driver.execute_script("return performance.getEntriesByType('resource').map((e) => e.name)")
    check("prototype touches draw frames", len(frames) > 30, str(len(frames)))
    check("prototype makes no request", requests == [], str(requests[:3]))
    driver.save_screenshot(os.path.join(OUT, "prototype.png"))
    driver.execute_cdp_cmd("Network.emulateNetworkConditions", {"offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
    desktop(driver)
    # Its frames against the studio's engine through the same samples (the preset's values).
    trace = os.path.join(folder, "prototype.csv")
    with open(trace, "w") as f:
        f.write("trace,t,x,y,phase\n" + "".join(f"proto,{t!r},{x!r},{y!r},{phase}\n" for t, x, y, phase in samples))
    replay = subprocess.run([BIN, "replay", "--preset", "tweetbot", "--traces", trace, "--trace", "proto", "--engine", "--out", os.path.join(folder, "proto")],
                            capture_output=True, text=True)
    check("prototype its samples replay", replay.returncode == 0, replay.stderr[-300:])
    if replay.returncode == 0:
        with open(os.path.join(folder, "proto", "engine.json")) as f:
            record = json.load(f)
        t0 = record["samples"][0][0]
        native = [[t - t0] + values for t, *values in record["frames"]]
        worst = max((abs(a - b) / max(1, abs(b)) for mine, theirs in zip(frames, native) for a, b in zip(mine, theirs)), default=float("inf"))
        check("prototype its frames equal the studio's engine through its samples to 1e-9", min(len(frames), len(native)) > 30 and worst <= 1e-9,
              f"largest difference {worst}, {len(frames)} and {len(native)} frames")


def feel_tests(driver, folder):
    session = art_test(driver, folder)
    feel_test(driver, folder, session)
    prototype_test(driver, folder, session)
