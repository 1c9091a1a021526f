#!/bin/sh
# Prints the seed-003 (swap token) comparisons of docs/swap-token.md.
# usage: scripts/seed003.sh [MMSIM] [all]   (default build/mmsim; "all" adds the make -jN sweep,
# minutes more on two cores)
set -e
MMSIM=${1:-build/mmsim}
ALL=${2:-} # kept: the contest loop below reuses the positional parameters
cd "$(dirname "$0")/.."
DB=${MMSIM_DB:-seed003-results.db}
C="--db $DB --no-progress"
OFF=off:vm.swap_token=off
ORIG=original:vm.swap_token=original

echo "== qsbench, Rik's 230 MB two-process run (6m45s -> 4m24s)"
# seeds 1-3: the runs differ by seed through the tick phase and the disk's rotational position
"$MMSIM" compare scenarios/seed003-qsbench.conf --runs 3 $C --arm $OFF --arm $ORIG \
	--arm fault:vm.swap_token=fault --arm priority:vm.swap_token=priority \
	--arm refractory:vm.swap_token=original,vm.swap_token_refractory=1 | sed -n '/^elapsed/,/^Runs/p'
echo "thread (Rik, 2.6.8-rc2): off 405 s, original 264 s (1.53x)"
echo "== qsbench -p 4 -m 96, mem=256m (Andrew: 4x)"
"$MMSIM" compare scenarios/seed003-qsbench-akpm.conf --runs 3 $C --arm $OFF --arm $ORIG \
	--arm priority:vm.swap_token=priority | sed -n '/^elapsed/,/^Runs/p'
echo "thread (Andrew): original about 4x faster than off"

echo "== contest mem_load (Con: 78 s 146.2% 94.5 4.7 1.30 -> 318 s 40.9% 95.2 1.3 5.13), mean of seeds 1-3"
printf '%-12s %8s %7s %7s %7s %7s %9s %8s\n' arm Time CPU% Loads LCPU% Ratio no_load handoffs
# the thread's no_load is derived: Time / Ratio
printf '%-12s %8s %7s %7s %7s %7s %9s %8s\n' "thread:off" 78 146.2 94.5 4.7 1.30 60 -
printf '%-12s %8s %7s %7s %7s %7s %9s %8s\n' "thread:token" 318 40.9 95.2 1.3 5.13 62 -
for arm in off:off original:original refractory:original,refractory timeout30:original,timeout30 \
	priority:priority; do
	name=${arm%%:*}
	set -- --set vm.swap_token="$(echo "${arm#*:}" | cut -d, -f1)"
	case ${arm#*:} in *refractory*) set -- "$@" --set vm.swap_token_refractory=1 ;; esac
	case ${arm#*:} in *timeout30*) set -- "$@" --set vm.swap_token_timeout=30 ;; esac
	for seed in 1 2 3; do
		"$MMSIM" run scenarios/seed003-contest-memload.conf "$@" --seed $seed --quiet --json -
	done | python3 -c '
import json, sys
dec = json.JSONDecoder(); text = sys.stdin.read(); runs = []; i = 0
while i < len(text):
    while i < len(text) and text[i].isspace(): i += 1
    if i >= len(text): break
    d, i = dec.raw_decode(text, i); runs.append({m["name"]: m["value"] for m in d["result"]["metrics"]})
avg = lambda k: sum(r[k] for r in runs) / len(runs)
print("%-12s %8.0f %7.1f %7.1f %7.1f %7.2f %9.0f %8.1f" % (sys.argv[1], avg("time"), avg("cpu_pct"),
      avg("loads"), avg("lcpu_pct"), avg("ratio"), avg("noload_time"), avg("token_handoffs")))' "$name"
done

echo "== make -j4 vmlinux, mem=64m (Andrew: no benefit, with or without exec/exit inheritance)"
"$MMSIM" compare scenarios/seed003-make-j4-64m.conf --runs 1 $C --arm $OFF --arm $ORIG \
	--arm inherit:vm.swap_token=original,vm.swap_token_exec_inherit=1 | sed -n '/^elapsed/,/^Runs/p'
"$MMSIM" compare scenarios/seed003-make-j4-64m.conf --runs 1 $C --metric cpu_pct --arm $OFF \
	--arm $ORIG --arm inherit:vm.swap_token=original,vm.swap_token_exec_inherit=1 |
	sed -n '/^cpu_pct/,/^Runs/p'
echo "thread (Andrew): no benefit from the token, with or without inheritance; 50-60% CPU"

[ "$ALL" = all ] || exit 0
echo "== make -j10..-j60, 384 MB, 180 MB named (Rik: -j10..50 unchanged; -j60 1h20m 26% -> 42m 52%)"
for m in elapsed cpu_pct; do
	"$MMSIM" sweep scenarios/seed003-make-j60.conf --vary kbuild.parallel=10:60:10 --runs 1 $C \
		--metric $m --arm $OFF --arm $ORIG
done
echo "thread (Rik, 3 runs each): -j10..-j50 the same with and without; -j60 off 4800 s ~26% CPU,"
echo "  original 2520 s ~52% CPU (1.9x)"
