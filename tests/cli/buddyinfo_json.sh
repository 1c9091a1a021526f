#!/usr/bin/env bash
# Every run's JSON carries /proc/buddyinfo at the end of the run: one array of MAX_ORDER
# (11) free-block counts per populated zone, whose pages add up to nr_free_pages (the
# buddy lists hold exactly the pages NR_FREE_PAGES counts); the text report prints it too.
set -eu
mmsim=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for sc in scenarios/demo.conf scenarios/seed000-arm32m-noswap-5.conf; do
	"$mmsim" run "$sc" --set run.time_limit=2s --json "$tmp/r.json" >"$tmp/r.txt"
	python3 - "$tmp/r.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
bi = r["buddyinfo"]
assert bi, "buddyinfo empty"
pages = 0
for zone, orders in bi.items():
    assert zone.startswith("Node 0, zone "), zone
    assert len(orders) == 11, (zone, len(orders))
    pages += sum(n << o for o, n in enumerate(orders))
assert pages == r["vmstat"]["nr_free_pages"], (pages, r["vmstat"]["nr_free_pages"])
print("ok   buddyinfo: %d zones, %d free pages = nr_free_pages" % (len(bi), pages))
PY
	grep -q '^== /proc/buddyinfo ==' "$tmp/r.txt" || { echo "FAIL: no buddyinfo in the report"; exit 1; }
	grep -q '^Node 0, zone' "$tmp/r.txt" || { echo "FAIL: no zone line in the report"; exit 1; }
done
echo "ok   buddyinfo in the text report"
