#!/bin/sh
# Prints the seed-002 comparison (Wu Fengguang 2009, VM_EXEC protection; docs/exec-protect.md):
# vm.reclaim_exec_protect=0 ("before") against 1 ("after") on the desktop and the file-server
# scenarios, through `mmsim compare` (mmtests-style tables), with the thread's numbers beside.
# usage: scripts/seed002.sh [MMSIM] [RUNS]   (defaults build/mmsim, 3)
# SEED002_ARM adds keys to both arms, e.g. SEED002_ARM=",vm.reclaim_inactive_file_is_low=0"
# (without the 2.6.31 rule that kernel.version = 2.6.31-rc turns on); SEED002_DB names the
# results store.
set -e
MMSIM=${1:-build/mmsim}
RUNS=${2:-3}
EXTRA=${SEED002_ARM:-}
cd "$(dirname "$0")/.."
DB=${SEED002_DB:-seed002-results.db}
arms="--arm before:vm.reclaim_exec_protect=0$EXTRA --arm after:vm.reclaim_exec_protect=1$EXTRA"

echo "== desktop, 512 MB. Thread (before -> after): last step 2369.02 -> 1161.99 s;"
echo "   pgmajfault 452116 -> 201343; pswpin 1486615 -> 512238; nr_vmscan_write 394776 -> 230839"
# shellcheck disable=SC2086
"$MMSIM" compare scenarios/seed002-desktop-512m.conf $arms --runs "$RUNS" --db "$DB" --no-progress
echo
echo "== progress timing: the thread's table beside the model's (model: mean of seeds 1-$RUNS)"
python3 scripts/seed002_progress.py "$MMSIM" "$RUNS" scenarios/seed002-desktop-512m.conf "$EXTRA"
echo
echo "== file server, 2 GB. Thread: major faults during the I/O 50 -> 3"
# shellcheck disable=SC2086
"$MMSIM" compare scenarios/seed002-fileserver-2g.conf $arms --runs "$RUNS" --db "$DB" --no-progress
