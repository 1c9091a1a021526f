#!/usr/bin/env bash
# mmsim plot draws sampled runs (one line per run file or arm) from the samples themselves:
# the free-memory data are the samples' nr_free_pages, the reclaim data the rates between
# samples; a run without samples is exit 2; `mmsim report` puts the time series in the HTML
# page, which loads in headless Chromium (skipped without it).
set -u
bin=$(realpath "${1:?usage: $0 MMSIM_BINARY}")
src=$(realpath "${MMSIM_SRC:-.}")
command -v gnuplot >/dev/null || { echo "skip: no gnuplot"; exit 77; }
command -v python3 >/dev/null || { echo "skip: no python3"; exit 77; }
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
cd "$t"
fail() { echo "FAIL: $*" >&2; exit 1; }
demo=$src/scenarios/demo.conf
"$bin" run "$demo" --quiet --sample 500ms --json a.json || fail "run a"
"$bin" run "$demo" --quiet --sample 500ms --set vm.swappiness=10 --json b.json || fail "run b"
"$bin" run "$demo" --quiet --json plain.json || fail "plain run"
"$bin" plot a.json b.json --out p >list 2>err || fail "plot: $(cat err)"
[ "$(wc -l <list)" = 5 ] || fail "expected 5 graphs, got: $(cat list)"
for g in free lru reclaim swap reclaimers; do
	[ -s "p/plot-ts-$g.svg" ] && [ -s "p/plot-ts-$g.png" ] || fail "no $g graph"
done
grep -q "title 'a'" p/plot-ts-free.gp && grep -q "title 'b'" p/plot-ts-free.gp ||
	fail "one line per run file"
python3 - <<'PY' || exit 1
import json
def blocks(path):
    out, cur = [], []
    for line in open(path).read().split("\n"):
        if line.strip():
            cur.append([float(x) for x in line.split()])
        elif cur:
            out.append(cur)
            cur = []
    return out
a = json.load(open("a.json"))["samples"]
free = blocks("p/plot-ts-free.dat")
assert len(free) == 2, len(free)
assert [r[1] for r in free[0]] == [s["nr_free_pages"] for s in a], "free data are not the samples"
def scanned(s):
    return sum(v for k, v in s.items() if k.startswith(("pgscan_kswapd_", "pgscan_direct_"))
               and k.rsplit("_", 1)[1] in ("dma", "dma32", "normal", "high"))
rec = blocks("p/plot-ts-reclaim.dat")
want = [(scanned(s1) - scanned(s0)) / (s1["t"] - s0["t"]) for s0, s1 in zip(a, a[1:])]
got = [r[1] for r in rec[0]]
assert len(got) == len(want) and all(abs(x - y) <= 1e-6 * max(1, abs(y)) for x, y in zip(got, want)), \
    "scan rates are not the differences between samples"
assert max(want) > 0, "the demo scans nothing"
print("ok   plot data are the samples and their rates")
PY
"$bin" plot plain.json --out p2 >/dev/null 2>err
[ $? = 2 ] && grep -q 'no samples' err || fail "a run without samples: $(cat err)"

"$bin" compare "$demo" --arm a --arm b:vm.swappiness=10 --runs 1 --db r.db --sample 1s \
	--no-progress >/dev/null 2>err || fail "compare --sample: $(cat err)"
"$bin" plot r.db --out p3 >list3 2>err || fail "plot STORE: $(cat err)"
[ "$(wc -l <list3)" = 5 ] && grep -q "title 'b scanned'" p3/exp1-ts-reclaim.gp || fail "plot STORE"
"$bin" report --db r.db --out rep >/dev/null 2>err || fail "report: $(cat err)"
[ "$(grep -c '<svg' rep/index.html)" -ge 7 ] && grep -q 'LRU list sizes' rep/index.html ||
	fail "time series not in the HTML report"
echo "ok   plot from run files and from the store; report shows the time series"

chromium=${CHROMIUM:-/usr/bin/chromium}
[ -x "$chromium" ] || { echo "skip: no chromium for the browser check"; exit 0; }
timeout 60 "$chromium" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
	--disable-background-networking --disable-component-update --disable-sync \
	--user-data-dir="$t/profile" --dump-dom "file://$t/rep/index.html" >dom.html 2>/dev/null || true
[ "$(grep -c '<svg' dom.html)" -ge 7 ] && grep -q 'direct reclaimers running' dom.html ||
	fail "Chromium's DOM lacks the time-series graphs"
echo "ok   the report with time series opens in headless Chromium"
