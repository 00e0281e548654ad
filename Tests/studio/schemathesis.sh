#!/usr/bin/env bash
# schemathesis (PyPI) against the studio's own /openapi.json, with the token: no 5xx, every
# answer conforms to the document (status, body, content type, headers), and the API refuses
# calls without the token (ignored_auth). Not checked: ST202 (the document cannot state each
# axis's range, so some schema-valid values are 400) and ST204 (an undeclared method gets 404).
# It makes the studio tests' Python environment (`make studio-venv`) when it is missing.
# Hypothesis's timing health checks (too_slow, filter_too_much) are off: on a loaded machine they
# once errored one operation without any server fault; the whole report is printed on a failure.
set -euo pipefail
bin=${SPRINGTUNE:?set SPRINGTUNE to the springtune binary}
venv=${STUDIO_VENV:-out/test/studio-venv}
[ -x "$venv/bin/schemathesis" ] || make -s studio-venv STUDIO_VENV="$venv"
venv=$(cd "$venv" && pwd)
work=$(mktemp -d); trap 'kill $pid 2>/dev/null; rm -rf "$work"' EXIT
# Every tenth of tweetbot's bundled traces (25 of 242, from 10 of its 15 groups): the contract is
# the same for any trace set, and every evaluation the generated requests ask for costs a tenth.
python3 - Sources/SpringTune/Resources/Traces/flick/traces.csv "$work/flick.csv" <<'PY'
import csv, sys
rows = csv.reader(open(sys.argv[1], newline=""))
out = csv.writer(open(sys.argv[2], "w", newline=""), lineterminator="\n")
out.writerow(next(rows))
ids = {}
for row in rows:
    if ids.setdefault(row[0], len(ids)) % 10 == 0:
        out.writerow(row)
PY
"$bin" studio --preset tweetbot --traces "$work/flick.csv" --no-browser --port 0 --session "$work/s.sqlite" >"$work/out" 2>"$work/err" &
pid=$!
for _ in $(seq 50); do grep -q '^studio: ' "$work/out" && break; sleep 0.1; done
url=$(sed -n 's/^studio: //p' "$work/out"); port=$(echo "$url" | sed 's|.*:\([0-9]*\)/.*|\1|'); token=${url##*token=}
(cd "$work" && "$venv/bin/schemathesis" run "http://127.0.0.1:$port/openapi.json" -H "Authorization: Bearer $token" \
  --checks not_a_server_error,response_schema_conformance,status_code_conformance,content_type_conformance,response_headers_conformance,ignored_auth \
  --suppress-health-check too_slow,filter_too_much --request-timeout 30 \
  --max-examples "${STUDIO_EXAMPLES:-30}" --seed 1) > "$work/report.txt" 2>&1 || { cat "$work/report.txt"; exit 1; }
tail -8 "$work/report.txt"
echo "schemathesis: 0 failed"
