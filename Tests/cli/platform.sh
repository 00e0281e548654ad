#!/usr/bin/env bash
# export --format (issue 24, deliverable 5): a real sweep's best set as SwiftUI, UIKit, Compose,
# CSS, Figma and preset JSON; each names its springs and constants, the Swift forms type-check
# against stand-ins for the Apple types (no SwiftUI or UIKit on Linux), a bad --format is one line.
# Usage: SPRINGTUNE=.build/release/springtune Tests/cli/platform.sh
. "$(dirname "$0")/lib.sh"
cd "$(dirname "$0")/../.."

"$bin" sweep --preset tweetbot --no-charts --out "$work/tb" >/dev/null 2>"$work/sweep.err"
check "the tweetbot sweep writes its report" test -s "$work/tb/report.csv"
"$bin" export "$work/tb/report.csv" --best -o "$work/out/today.json" >/dev/null
for f in swiftui uikit compose css figma json; do
  "$bin" export "$work/tb/report.csv" --best --format $f -o "$work/out/tweetbot.$f" >"$work/$f.out" 2>"$work/$f.err"; rc=$?
  check "--format $f exits 0 and writes a file ($(head -c 200 "$work/$f.err"))" test $rc = 0 -a -s "$work/out/tweetbot.$f"
done
check "--format json is today's preset, byte for byte" cmp -s "$work/out/today.json" "$work/out/tweetbot.json"

# Each form names the spring and the thresholds in its own syntax.
has() { grep -qF -- "$2" "$work/out/tweetbot.$1"; }
check "swiftui: Spring(duration:bounce:) and .spring(response:dampingRatio:) in enum Tweetbot" \
  eval 'has swiftui "enum Tweetbot {" && has swiftui "static let snap = Spring(duration: " && has swiftui "static let snapAnimation = Animation.spring(response: "'
check "uikit: UISpringTimingParameters at mass 1" has uikit "UISpringTimingParameters(mass: 1, stiffness: "
check "swiftui: each spring also from the finger's velocity (interpolatingSpring with initialVelocity)" \
  eval 'has swiftui "static func snapAnimation(initialVelocity: Double) -> Animation {" && has swiftui ".interpolatingSpring(mass: 1, stiffness: "'
check "compose: each spring also from the finger's velocity (Animatable.animateTo with initialVelocity)" \
  eval 'has compose "suspend fun Animatable<Float, AnimationVector1D>.animateSnapTo(target: Float, initialVelocity: Float) =" && has compose "animateTo(target, snapSpec(), initialVelocity)"'

for f in swiftui uikit; do
  check "$f: thresholds as typed constants" eval "has $f 'static let flickVelocity: Double = ' && has $f 'static let distanceThreshold: Double = '"
done
check "compose: spring(dampingRatio, stiffness), the nearest Material 3 token and const vals" \
  eval 'has compose "object Tweetbot {" && has compose "fun <T> snapSpec(): SpringSpec<T> = spring(dampingRatio = snapDampingRatio, stiffness = snapStiffness)" && has compose "Nearest Material 3 token: " && has compose "const val flickVelocity = "'
check "css: duration, linear() easing, custom properties and a transition" \
  eval 'has css "--tweetbot-snap-duration: " && has css "--tweetbot-snap-easing: linear(0, " && has css "--tweetbot-flick-velocity: " && has css "transition: transform var(--tweetbot-snap-duration) var(--tweetbot-snap-easing);"'

# The Swift forms type-check against stand-ins with the Apple types' initialisers and labels.
cat >"$work/Apple.swift" <<'SWIFT'
struct Spring { init(duration: Double, bounce: Double) {}; init(response: Double, dampingRatio: Double) {} }
struct Animation {
    static func spring(response: Double, dampingRatio: Double) -> Animation { Animation() }
    static func interpolatingSpring(mass: Double, stiffness: Double, damping: Double, initialVelocity: Double) -> Animation { Animation() }
}
struct CGVector { init(dx: Double, dy: Double) {} }
final class UISpringTimingParameters { init(mass: Double, stiffness: Double, damping: Double, initialVelocity: CGVector) {} }
SWIFT
if command -v swiftc >/dev/null; then
  for f in swiftui uikit; do
    grep -v '^import ' "$work/out/tweetbot.$f" >"$work/$f.swift"
    swiftc -typecheck "$work/Apple.swift" "$work/$f.swift" 2>"$work/$f.tc"
    check "$f type-checks against the stand-ins ($(head -c 300 "$work/$f.tc"))" test ! -s "$work/$f.tc"
  done
fi

# A hostile preset name (a newline, NUL, a comment closer and code after it) stays inside the
# generated files' comments: the Swift still type-checks, no file holds a NUL, and the printed
# line is one line.
python3 - "$work" <<'PY'
import json, sys
p = json.load(open("Presets/tweetbot.json"))
# (A name may not hold a "/" since issue 39: a report folder is named after it.)
p["name"] = 'evil* let injected = 1\n let x = "\u0000'
p["description"] = 'desc */ system("touch INJECTED") /*\n</style>'
p["traces"] = ["../../Sources/SpringTune/Resources/Traces/" + t for t in p["traces"]]
json.dump(p, open(sys.argv[1] + "/evil.json", "w"))
PY
mkdir -p "$work/evil/x" && cp "$work/evil.json" "$work/evil/x/evil.json"
sed -i "s#\.\./\.\./Sources#$PWD/Sources#g" "$work/evil/x/evil.json"
"$bin" sweep --preset "$work/evil/x/evil.json" --vary snapDamping=0.9 --vary distanceThreshold=40 --vary flickVelocity=800 \
  --vary maxFlickAngle=30 --no-charts --out "$work/evil/r" >/dev/null 2>&1
for f in swiftui compose css; do "$bin" export "$work/evil/r/report.csv" --best --format $f -o "$work/evil/e.$f" >"$work/evil/$f.out" 2>&1; done
check "a hostile preset name sweeps and exports (so the checks below have files to read)" eval 'test -s "$work/evil/e.css" -a -s "$work/evil/e.swiftui" -a -s "$work/evil/e.compose"'
check "a hostile preset name: the printed lines are one line each" test "$(cat "$work"/evil/*.out | wc -l)" = 3
check "…no generated file holds a NUL" bash -c "! grep -qaP '\\x00' '$work'/evil/e.*"
check "…the CSS comments are not closed early" bash -c "! grep -q 'evil\*/' '$work/evil/e.css'"
if command -v swiftc >/dev/null; then
  grep -v '^import ' "$work/evil/e.swiftui" >"$work/evil.swift"
  swiftc -typecheck "$work/Apple.swift" "$work/evil.swift" 2>"$work/evil.tc"
  check "…the SwiftUI file still type-checks ($(head -c 300 "$work/evil.tc"))" test ! -s "$work/evil.tc"
fi

# Preset names no exported type could be named after (no ASCII word, a keyword, a type the file
# uses): the SwiftUI and UIKit files still type-check (issue 39: `enum _`, `enum Self`).
if command -v swiftc >/dev/null; then
  for name in _ 日本 self Any spring; do
    python3 - "$work/evil/x/evil.json" "$work/named.json" "$name" <<'PY'
import json, sys
p = json.load(open(sys.argv[1])); p["name"] = sys.argv[3]
json.dump(p, open(sys.argv[2], "w"))
PY
    "$bin" sweep --preset "$work/named.json" --vary snapDamping=0.9 --vary distanceThreshold=40 --vary flickVelocity=800 \
      --vary maxFlickAngle=30 --no-charts --out "$work/named-r" >/dev/null 2>&1
    for f in swiftui uikit; do
      "$bin" export "$work/named-r/report.csv" --best --format $f -o "$work/named.$f" >/dev/null 2>&1
      grep -v '^import ' "$work/named.$f" >"$work/named.swift"
      swiftc -typecheck "$work/Apple.swift" "$work/named.swift" 2>"$work/named.tc"
      check "a preset named '$name': the $f file declares $(grep -o '^enum [A-Za-z_0-9]*' "$work/named.$f") and type-checks ($(head -c 200 "$work/named.tc"))" test ! -s "$work/named.tc"
    done
    rm -rf "$work/named-r"
  done
fi

# The numbers agree with the preset: f and ζ in every form (6 significant digits).
check "the forms' numbers are the preset's spring in each platform's terms" python3 - "$work/out" <<'PY'
import json, math, re, sys
d = sys.argv[1]
p = json.load(open(f"{d}/tweetbot.json")); f, z = p["spring"]["frequency"], p["spring"]["damping"]
w = 2 * math.pi * f; k, c = w * w, 2 * z * w
text = {x: open(f"{d}/tweetbot.{x}").read() for x in ["swiftui", "uikit", "compose", "css"]}
num = lambda pattern, form: float(re.search(pattern, text[form]).group(1))
close = lambda a, b: abs(a - b) <= 1e-5 * max(1, abs(b))
ok = close(num(r"Spring\(duration: ([\d.e+-]+)", "swiftui"), 1 / f) and close(num(r"bounce: ([\d.e+-]+)", "swiftui"), 1 - z if z <= 1 else 1 / z - 1)
ok &= close(num(r"dampingRatio: ([\d.e+-]+)", "swiftui"), z)
ok &= close(num(r"stiffness: ([\d.e+-]+)", "uikit"), k) and close(num(r"damping: ([\d.e+-]+)", "uikit"), c)
ok &= close(num(r"snapStiffness = ([\d.e+-]+)f", "compose"), k) and close(num(r"snapDampingRatio = ([\d.e+-]+)f", "compose"), z)
figma = json.load(open(f"{d}/tweetbot.figma"))
s = figma["springs"][0]
ok &= s["name"] == "snap" and s["mass"] == 1 and close(s["stiffness"], k) and close(s["damping"], c)
ok &= {x["name"] for x in figma["constants"]} == set(p["params"]) and all(x["unit"] for x in figma["constants"])
pts = [float(x.split()[0]) for x in re.search(r"snap-easing: linear\(([^)]*)\)", text["css"]).group(1).split(",")]
ok &= pts[0] == 0 and pts[-1] == 1 and len(pts) >= 10
ok &= num(r"snap-duration: (\d+)ms", "css") > 0
sys.exit(0 if ok else 1)
PY

# A model with two springs: flow-layout's cells and its scroll view's bounce, each named.
"$bin" sweep --preset evernote --no-charts --out "$work/ev" >/dev/null 2>&1
"$bin" export "$work/ev/report.csv" --best --format css --travel 300 -o "$work/out/evernote.css" >/dev/null 2>&1
"$bin" export "$work/ev/report.csv" --best --format swiftui -o "$work/out/evernote.swift" >/dev/null 2>&1
check "flow-layout exports both springs" eval 'grep -qF -- "--evernote-bounce-easing: linear(" "$work/out/evernote.css" && grep -qF "static let bounce = Spring(duration: 0.628319, bounce: 0)" "$work/out/evernote.swift"'
check "--travel sets the band in the CSS" grep -qF "on a 300 pt travel" "$work/out/evernote.css"

# Bad input: one line and exit 64; nothing written.
"$bin" export "$work/tb/report.csv" --best --format kotlin -o "$work/out/bad.kt" 2>"$work/bad.err"; rc=$?
check "a bad --format exits 64 with one line ($(head -c 300 "$work/bad.err"))" test $rc = 64 -a "$(wc -l <"$work/bad.err")" = 1 -a ! -e "$work/out/bad.kt"
"$bin" export "$work/tb/report.csv" --best --format css --copy-traces -o "$work/out/bad.css" 2>"$work/bad.err"; rc=$?
check "--copy-traces with a platform form exits 64 with one line" test $rc = 64 -a "$(wc -l <"$work/bad.err")" = 1 -a ! -e "$work/out/bad.css"
"$bin" export "$work/tb/report.csv" --best --format swiftui --keep-sweep -o "$work/out/bad.swift" 2>"$work/bad.err"; rc=$?
check "--keep-sweep with a platform form exits 64 with one line" test $rc = 64 -a "$(wc -l <"$work/bad.err")" = 1 -a ! -e "$work/out/bad.swift"
"$bin" export "$work/tb/report.csv" --best --format css --travel 0.2 -o "$work/out/bad.css" 2>"$work/bad.err"; rc=$?
check "a --travel within the tolerance exits 64 with one line" test $rc = 64 -a "$(wc -l <"$work/bad.err")" = 1 -a ! -e "$work/out/bad.css"
"$bin" export "$work/tb/report.csv" --best --format css --travel 1e308 -o "$work/out/huge.css" 2>"$work/huge.err"; rc=$?
check "an absurd --travel (1e308) exits 64 with one line, no crash ($(cat "$work/huge.err"))" test $rc = 64 -a "$(wc -l <"$work/huge.err")" = 1 -a ! -e "$work/out/huge.css"

# The hand-off (issue 38): every bundled tweetbot and appstore release, replayed through UIKit's,
# SwiftUI's and Compose's published spring formulas with the exported numbers and the velocity
# springtune's engine carries, stays within 0.5 pt of springtune's frames (and dropping the
# velocity breaks that on tweetbot: the check can fail); the CSS linear() easings stay within
# 0.5 pt of the spring and end at 1 (HANDOFF_CSS_REPORT_ONLY=1 prints those without asserting;
# make test does not set it). Reuses this file's tweetbot and evernote sweeps.
python3 Tests/platform/handoff.py --springtune "$bin" --work "$work/handoff" \
  --sweep tweetbot="$work/tb" --sweep evernote="$work/ev" >"$work/handoff.out" 2>&1; rc=$?
sed 's/^/  /' "$work/handoff.out"
check "hand-off: the exported springs follow springtune's frames within 0.5 pt (Tests/platform/handoff.py exit $rc$(grep '^FAIL' "$work/handoff.out" | cut -c6-90 | sed 's/^/; /' | tr -d '\n'))" test $rc = 0
finish
