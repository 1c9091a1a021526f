#!/usr/bin/env bash
# Every harness command has --help, and bad usage is a message on stderr and exit 2.
set -uo pipefail
bin=$(realpath "${1:?usage: $0 MMSIM_BINARY}")
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
cd "$t"
printf 'workload = fake\n' > s.conf
bad=0
expect() {
  local want=$1; shift
  "$bin" "$@" > out.txt 2> err.txt
  local rc=$?
  if [ $rc -ne "$want" ]; then
    echo "FAIL: mmsim $* exited $rc, want $want" >&2; bad=1
  elif [ "$want" -eq 2 ] && [ ! -s err.txt ]; then
    echo "FAIL: mmsim $* gave no message" >&2; bad=1
  elif [ "$want" -eq 0 ] && ! grep -q usage out.txt; then
    echo "FAIL: mmsim $* printed no usage" >&2; bad=1
  fi
}
for c in compare sweep results import report; do
  expect 0 "$c" --help
  expect 2 "$c" --no-such-option
done
expect 2 compare s.conf --db u.db
expect 2 compare missing.conf --arm a --db u.db
expect 2 compare s.conf --arm 'bad name' --db u.db
expect 2 compare s.conf --arm a --arm a --db u.db
expect 2 compare s.conf --arm a --runs 0 --db u.db
expect 2 compare s.conf --arm a -j x --db u.db
expect 2 compare s.conf --arm a --vary x=1,2 --db u.db
expect 2 sweep s.conf --db u.db
expect 2 sweep s.conf --vary x=3:1:1 --db u.db
expect 2 sweep s.conf --vary x=1,2 --vary x=3 --db u.db
expect 2 sweep s.conf --vary x=1,2 --arm a:x=5 --db u.db
expect 2 sweep --vary x=1,2 --db u.db
expect 2 results --csv --json --db u.db
expect 2 report --db u.db
expect 2 report 0 --db u.db
expect 2 import --db u.db
echo 'not json' > bad.json
expect 2 import bad.json --db u.db
exit $bad
