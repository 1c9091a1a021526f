#!/usr/bin/env bash
# compare, sweep, report, results export and the emit-jobs / import round trip, end to end
# with the fake runner.
set -euo pipefail
bin=$(realpath "${1:?usage: $0 MMSIM_BINARY}")
src=$(realpath "${MMSIM_SRC:-.}")
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
export MMSIM_RUN_CMD="$src/tests/fixtures/fake-run.sh"
cd "$t"
printf 'workload = fake\n' > s.conf
fail() { echo "FAIL: $*" >&2; exit 1; }

"$bin" compare s.conf --arm vanilla --arm throttle:vm.max_reclaiming_tasks_per_zone=3 \
  --runs 5 --db r.db --out rep > cmp.txt 2> cmp.err
for pat in "Amean      elapsed" "Hmean      ops" "Welch p" "Duration Elapsed" \
  "Direct pages scanned" "Kswapd efficiency" "Percentage direct scans" "Page writes anon"; do
  grep -q "$pat" cmp.txt || fail "compare table lacks '$pat'"
done
grep -q '10 runs: 0 already stored, 10 run (10 stored, 0 failed)' cmp.err || fail "compare runs"

"$bin" sweep s.conf --vary hackbench.groups=80,90,100,110,120 --arm vanilla \
  --arm throttle:vm.max_reclaiming_tasks_per_zone=3 --runs 3 --db r.db > sweep.txt 2> /dev/null
[ "$(grep -cE '^(80|90|100|110|120) ' sweep.txt)" -eq 5 ] || fail "sweep rows"
grep -q 'throttle vs vanilla' sweep.txt || fail "sweep columns"
# The store keeps what each run cost the host; tables show it only when asked.
! grep -q host_ cmp.txt sweep.txt || fail "host figures among the results"
FAKE_RUN_LOG=none2.log "$bin" sweep s.conf --vary hackbench.groups=80,90,100,110,120 \
  --arm vanilla --arm throttle:vm.max_reclaiming_tasks_per_zone=3 --runs 3 --db r.db \
  --metric host_cpu_s > host.txt 2> /dev/null
[ ! -s none2.log ] || fail "stored runs were run again for a host table"
grep -q '^host_cpu_s \[s\]' host.txt || fail "host_cpu_s table: $(head -3 host.txt)"
FAKE_RUN_LOG=none2.log "$bin" compare s.conf --arm vanilla --arm throttle:vm.max_reclaiming_tasks_per_zone=3 \
  --runs 5 --db r.db --metric host_cpu_s > hostc.txt 2> /dev/null
grep -q '^Amean      host_cpu_s' hostc.txt || fail "compare host table: $(head -12 hostc.txt)"
[ "$(grep -E '^(80|90|100|110|120) ' host.txt | grep -vc 'n/a')" -eq 5 ] || fail "host rows"

"$bin" report 1 2 --db r.db --out rep > report.txt 2> /dev/null
for f in rep/index.html rep/exp1-metric.svg rep/exp1-metric.png rep/exp1-scanned.svg \
  rep/exp2-sweep.svg rep/exp2-sweep.png rep/exp2-sweep.gp; do
  [ -s "$f" ] || fail "missing $f"
done
grep -q '<svg' rep/index.html || fail "no inline SVG"
! grep -qiE '(src|href)="(https?:|//)' rep/index.html || fail "external resource in HTML"

"$bin" results --db r.db --csv > all.csv
[ "$(wc -l < all.csv)" -eq 41 ] || fail "csv rows: $(wc -l < all.csv)"
"$bin" results --db r.db --json -o all.json
grep -qE '"schema":[[:space:]]*"mmsim-results/1"' all.json || fail "json export"
"$bin" results --db r.db --experiments | grep -q sweep || fail "experiments list"

# Distribution round trip: emit the commands, run them elsewhere (here: xargs), import.
"$bin" sweep s.conf --vary hackbench.groups=80,90,100,110,120 --arm vanilla \
  --arm throttle:vm.max_reclaiming_tasks_per_zone=3 --runs 3 --db dist.db \
  --emit-jobs jobs.txt --emit-cmd "$MMSIM_RUN_CMD" --json-dir out 2> /dev/null
[ "$(wc -l < jobs.txt)" -eq 30 ] || fail "emitted $(wc -l < jobs.txt) jobs"
xargs -P 2 -I CMD sh -c CMD < jobs.txt
"$bin" import --db dist.db out/*.json 2> import.err
grep -q '30 stored, 0 already present' import.err || fail "import: $(cat import.err)"
FAKE_RUN_LOG=none.log "$bin" sweep s.conf --vary hackbench.groups=80,90,100,110,120 \
  --arm vanilla --arm throttle:vm.max_reclaiming_tasks_per_zone=3 --runs 3 --db dist.db \
  > dist.txt 2> /dev/null
[ ! -s none.log ] || fail "imported runs were run again"
diff <(tail -n +2 sweep.txt) <(tail -n +2 dist.txt) || fail "imported sweep differs"

# A runner that is another build (another model id) is refused, not stored under ours.
set +e
env -u MMSIM_BIN "$bin" compare s.conf --arm a:x=1 --runs 2 --db v.db > v.txt 2> v.err
rc=$?
set -e
[ $rc -eq 1 ] || fail "other build: exit $rc"
grep -q 'its JSON reports mmsim 0.1.0, this experiment is mmsim' v.err || fail "other build: $(head -3 v.err)"
[ "$("$bin" results --db v.db --csv | wc -l)" -eq 1 ] || fail "other build's runs were stored"

# A failing run is reported, the others are kept, exit status 1.
set +e
FAKE_RUN_FAIL=2 "$bin" compare s.conf --arm a:x=1 --runs 3 --db f.db > f.txt 2> f.err
rc=$?
set -e
[ $rc -eq 1 ] || fail "failing run: exit $rc"
grep -q 'failing on purpose' f.err || fail "failure text not shown"
[ "$(grep -c '^Runs' f.txt)" -ge 1 ] && grep -qE '^Runs +elapsed +2$' f.txt || fail "partial arm"
echo "e2e OK"
