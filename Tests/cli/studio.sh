#!/usr/bin/env bash
# `springtune studio` from outside: the one line, the token, the Host check, the body limit,
# one-line JSON errors, a second studio on one session, Ctrl-C, and the replay latency figure.
. "$(dirname "$0")/lib.sh"
here=$(cd "$(dirname "$0")/.." && pwd)

start() { # [preset=NAME] start SESSION [ARGS...]: runs a studio (evernote by default), sets url/port/token/pid
  local session=$1; shift
  rm -f "$work/out"   # not the line of a studio started before
  "$bin" studio --preset "${preset:-evernote}" --no-browser --port 0 --session "$session" "$@" >"$work/out" 2>"$work/err" &
  pid=$!
  for _ in $(seq 50); do grep -q '^studio: ' "$work/out" && break; sleep 0.1; done
  url=$(sed -n 's/^studio: //p' "$work/out"); port=$(echo "$url" | sed 's|.*:\([0-9]*\)/.*|\1|'); token=${url##*token=}
}
code() { curl -s -o "$work/body" -w '%{http_code}' "$@"; }

start "$work/s/evernote.sqlite"
check "the studio line within 5 s" test -n "$url"
check "one line on stdout" test "$(wc -l <"$work/out")" = 1
check "the token has 128 bits" test ${#token} -ge 32
check "GET /api/preset with the token" test "$(code -H "Authorization: Bearer $token" "http://127.0.0.1:$port/api/preset")" = 200
check "  names the preset" grep -q '"name":"evernote"' "$work/body"
check "without the token: 401" test "$(code "http://127.0.0.1:$port/api/preset")" = 401
check "  as one line of JSON" test "$(head -c 9 "$work/body")" = '{"error":'
check "a wrong token: 401" test "$(code "http://127.0.0.1:$port/api/preset?token=x$token")" = 401
check "Host: evil.example: 403" test "$(code -H 'Host: evil.example' "http://127.0.0.1:$port/api/preset?token=$token")" = 403
check "localhost:PORT is accepted" test "$(code "http://localhost:$port/api/preset?token=$token")" = 200
check "the page needs no token" test "$(code "http://127.0.0.1:$port/")" = 200
head -c 2000000 /dev/zero | tr '\0' ' ' >"$work/big"
check "a body over 1 MiB: 413" test "$(code -H "Authorization: Bearer $token" --data-binary @"$work/big" "http://127.0.0.1:$port/api/evaluate")" = 413
check "malformed JSON: 400" test "$(code -H "Authorization: Bearer $token" -d '{"params":' "http://127.0.0.1:$port/api/evaluate")" = 400
check "an unknown key: 400" test "$(code -H "Authorization: Bearer $token" -d '{"parms":{}}' "http://127.0.0.1:$port/api/evaluate")" = 400
check "a value off its axis: 400" test "$(code -H "Authorization: Bearer $token" -d '{"params":{"damping":1e308}}' "http://127.0.0.1:$port/api/evaluate")" = 400
check "an unknown path: 404" test "$(code -H "Authorization: Bearer $token" "http://127.0.0.1:$port/etc/passwd")" = 404
check "a path escape: 404" test "$(code --path-as-is -H "Authorization: Bearer $token" "http://127.0.0.1:$port/../../etc/passwd")" = 404
check "export with a path in its name: 400" test "$(code -H "Authorization: Bearer $token" -d '{"name":"../../x"}' "http://127.0.0.1:$port/api/export")" = 400
check "export: 200" test "$(code -H "Authorization: Bearer $token" -d '{"name":"mine"}' "http://127.0.0.1:$port/api/export")" = 200
check "  inside the session folder, a preset springtune reads" bash -c '"$0" presets show "$1" >/dev/null' "$bin" "$work/s/exports/mine.json"
check "  with the session in its provenance" grep -q '"session"' "$work/s/exports/mine.json"
"$bin" studio --preset evernote --no-browser --port 0 --session "$work/s/evernote.sqlite" >/dev/null 2>"$work/err2"; rc=$?
check "a second studio on the session: exit 73" test $rc = 73
check "  with one line" test "$(wc -l <"$work/err2")" = 1
python3 "$here/studio/latency.py" "$url" "${STUDIO_REQUESTS:-200}" | tee "$work/latency"
check "replay latency measured" grep -q 'p95' "$work/latency"
kill -INT $pid; wait $pid; rc=$?
check "Ctrl-C: exit 0" test $rc = 0
check "  one line on stderr: studio: stopped" test "$(wc -l <"$work/err")" = 1 -a -n "$(grep '^studio: stopped; the session is in ' "$work/err")"
check "  the session file is intact" test -s "$work/s/evernote.sqlite"
# Learning: three answers, then kill -9; the restarted studio has the same best and open round.
api() { curl -s -H "Authorization: Bearer $token" "$@"; }
field() { python3 -c 'import json,sys; d=json.load(sys.stdin); print(eval(sys.argv[1], {}, {"d": d}))' "$1"; }
start "$work/k/evernote.sqlite"
for _ in 1 2 3; do
  api "http://127.0.0.1:$port/api/candidates?k=4" >"$work/round"
  n=$(field 'd["round"]' <"$work/round"); worst=$(field 'd["candidates"][-1]["id"]' <"$work/round")
  api -d "{\"round\":$n,\"worst\":$worst}" "http://127.0.0.1:$port/api/choices" >"$work/answer"
done
check "three answers recorded" test "$(field 'd["choices"]' <"$work/answer")" = 3
api "http://127.0.0.1:$port/api/candidates?k=4" >"$work/open1"; api "http://127.0.0.1:$port/api/best" >"$work/best1"
check "the best rests on 3 choices, with a utility map" test "$(field 'd["choices"], d["map"] is not None' <"$work/best1")" = "(3, True)"
check "every candidate meets the constraint overshoot_pt_p95 <= 0.5" test "$(field 'all(c["metrics"]["overshoot_pt_p95"] <= 0.5 for c in d["candidates"])' <"$work/open1")" = True
kill -9 $pid; wait $pid 2>/dev/null
start "$work/k/evernote.sqlite"
api "http://127.0.0.1:$port/api/candidates?k=4" >"$work/open2"; api "http://127.0.0.1:$port/api/best" >"$work/best2"
check "after kill -9: the same open round" cmp -s "$work/open1" "$work/open2"
check "after kill -9: the same best" cmp -s "$work/best1" "$work/best2"
check "DELETE /api/choices/last undoes one answer" test "$(api -X DELETE "http://127.0.0.1:$port/api/choices/last" | field 'd["choices"]')" = 2
check "  and round 3 is open again" test "$(api "http://127.0.0.1:$port/api/candidates?k=4" | field 'd["round"]')" = 3
kill -INT $pid; wait $pid
# A clean stop closes the database: the file alone holds the session (a copy of it has the answers).
check "after Ctrl-C: no -wal or -shm beside the session" test ! -e "$work/k/evernote.sqlite-wal" -a ! -e "$work/k/evernote.sqlite-shm"
mkdir -p "$work/copy"; cp "$work/k/evernote.sqlite" "$work/copy/"
check "  a copy of the file alone has the 2 answers" test "$(python3 -c 'import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute("SELECT COUNT(*) FROM choices").fetchone()[0])' "$work/copy/evernote.sqlite")" = 2
# More first rounds than Swift's cooperative pool has threads (one per core) wait seconds for
# tweetbot's feasible pool (768 sets × 242 traces); the API's blocking work runs off that pool,
# so the page's files and the preset still answer.
mkdir -p "$work/t"
preset=tweetbot start "$work/t/tweetbot.sqlite"
n=$(( $(nproc) + 1 )); [ $n -lt 4 ] && n=4
waiting=()
for i in $(seq $n); do (api "http://127.0.0.1:$port/api/candidates?k=4" >/dev/null; touch "$work/t/answered$i") & waiting+=($!); done
sleep 0.2
css=$(code "http://127.0.0.1:$port/studio.css"); presetCode=$(code -H "Authorization: Bearer $token" "http://127.0.0.1:$port/api/preset")
answered=$(find "$work/t" -name 'answered*' | wc -l)
check "while $n first rounds wait on the feasible pool, the page's files and /api/preset answer" test "$css $presetCode $answered" = "200 200 0"
wait "${waiting[@]}"
check "  and then the $n first-round requests" test "$(find "$work/t" -name 'answered*' | wc -l)" = $n
kill -INT $pid; wait $pid
"$bin" studio --preset evernote --simulate 1 --rounds 5 >"$work/sim"; rc=$?
check "studio --simulate: exit 0 with the table" test $rc = 0 -a "$(grep -c 'seeds at ≥ 0.95 after round 5' "$work/sim")" = 1
echo 'not a database, just text' >"$work/bad.sqlite"
"$bin" studio --preset evernote --no-browser --port 0 --session "$work/bad.sqlite" >/dev/null 2>"$work/err3"; rc=$?
check "a session that is not SQLite: exit 65" test $rc = 65
# Issue 39 items 4 and 6: an empty --session is a usage error; another application's SQLite
# database is refused and left byte for byte.
"$bin" studio --preset evernote --no-browser --session '' >/dev/null 2>"$work/err3"; rc=$?
check "studio --session '': exit 64" test $rc = 64
python3 -c 'import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute("create table notes(id integer primary key, body text)"); c.commit()' "$work/app.sqlite"
before=$(sha256sum <"$work/app.sqlite")
"$bin" studio --preset evernote --no-browser --port 0 --session "$work/app.sqlite" >/dev/null 2>"$work/err3"; rc=$?
check "another application's SQLite file: exit 65, one line, unchanged" bash -c "test $rc = 65 && test \$(wc -l <'$work/err3') = 1 && test '$before' = \"\$(sha256sum <'$work/app.sqlite')\""
finish
