#!/usr/bin/env python3
"""Writes the `group` column (Reference §14: who made a trace) into bundled trace CSVs.

A bundled trace's id names its recording (see each set's README), so its group is read from it:
- an AOSP VelocityTracker fling (`Sailfish...`, `Swordfish...`): the phone it was recorded on;
- a getevent dump (`galaxy-paint-new-c001`, `tablet-two-finger-drag-g000`): the source file;
- an evemu recording (`Wacom_DTH2242_Finger-events-...`): the touch device;
- a synthetic trace (`synthetic-pinch-open-6001-7`): its own id, since each is drawn independently.
Set prefixes (`sheet-`, `evemu-`) are dropped first. An id that matches no rule fails the script,
so a new source cannot slip in without its group. Usage: add-trace-groups.py FILE.csv ...
"""
import csv, io, os, re, sys

GETEVENT = ["galaxy-paint-new", "galaxys-paint", "phone-CalenderaddEvent", "phone-openCalender",
            "phone-playAngryBirdsLevel1", "phone-single-drag", "phone-single-touch", "phone-three-touches",
            "tablet-CalenderaddEvent", "tablet-openAngryBirds-drag-tap-tap", "tablet-openCalender-drag-tap-tap",
            "tablet-playAngryBirdsLevel1", "tablet-single-drag", "tablet-single-touch", "tablet-three-touches",
            "tablet-two-finger-drag"]
EVEMU = ["Atmel_maXTouch_Touchscreen", "ELAN_CANDO_Windows7", "EP0430M09", "N-Trig_MultiTouch",
         "QUANTA_OpticalTouchScreen", "Wacom_Cintiq_13HD_touch_Finger", "Wacom_DTH2242_Finger", "Wacom_ISDv4_E6_Finger"]
AOSP = ["Sailfish", "Swordfish"]


def group(trace_id):
    tid = re.sub(r"^(sheet-|evemu-)+", "", trace_id)
    if re.match(r"^synthetic-[a-z-]+-\d+-\d+$", tid):
        return tid
    for name in sorted(GETEVENT, key=len, reverse=True):
        if re.match(re.escape(name) + r"-[cg]\d+", tid):
            return name
    for name in EVEMU:
        if tid.startswith(name + "-") or tid.startswith(name + "."):
            return name
    for name in AOSP:
        if tid.startswith(name):
            return name
    raise SystemExit(f"no group rule for trace id '{trace_id}'")


for path in sys.argv[1:]:
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    header, body = rows[0], rows[1:]
    if "group" in header:
        at = header.index("group")
    else:
        header.append("group")
        at = len(header) - 1
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(header)
    for r in body:
        r += [""] * (len(header) - len(r))
        r[at] = group(r[0])
        w.writerow(r)
    tmp = path + ".tmp"
    with open(tmp, "w", newline="") as f:
        f.write(out.getvalue())
    os.replace(tmp, path)
