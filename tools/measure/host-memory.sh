#!/usr/bin/env bash
# Host bytes per simulated object, as the run.host_memory_limit estimate uses them: the
# growth of mmsim's peak RSS (GNU time's %M) per object added, between two runs that differ
# in one count only. Prints bytes per frame, per resident mapped page and per task.
set -euo pipefail
bin=${1:-build/mmsim}
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
rss() { /usr/bin/time -f %M "$bin" run "$1" --quiet 2>&1 >/dev/null | tail -1; }
conf() { printf '%s\n' "$@" > "$t/c.conf"; echo "$t/c.conf"; }
a=$(rss "$(conf 'workload = usemem' 'usemem.size = 1M' 'machine.ram = 1G' 'run.time_limit = 1s')")
b=$(rss "$(conf 'workload = usemem' 'usemem.size = 1M' 'machine.ram = 8G' 'run.time_limit = 1s')")
echo "per frame: $(( (b - a) * 1024 / ((8 - 1) * 262144) )) bytes (RSS ${a} -> ${b} KiB, 1G -> 8G)"
a=$(rss "$(conf 'workload = usemem' 'usemem.size = 64M' 'machine.ram = 4G' 'run.time_limit = 10s')")
b=$(rss "$(conf 'workload = usemem' 'usemem.size = 1G' 'machine.ram = 4G' 'run.time_limit = 10s')")
echo "per mapped page: $(( (b - a) * 1024 / (245760) )) bytes (RSS ${a} -> ${b} KiB, 64M -> 1G touched)"
a=$(rss "$(conf 'workload = hackbench' 'hackbench.groups = 50' 'hackbench.loops = 1' 'machine.ram = 4G' 'run.time_limit = 60s')")
b=$(rss "$(conf 'workload = hackbench' 'hackbench.groups = 500' 'hackbench.loops = 1' 'machine.ram = 4G' 'run.time_limit = 60s')")
echo "per task: $(( (b - a) * 1024 / (450 * 40) )) bytes (RSS ${a} -> ${b} KiB, 2000 -> 20000 tasks)"
