#!/usr/bin/env bash
# fs_mark's closed files leave their dentries and inodes to shrink_slab: on the seed-004 v1
# scenario reclaim scans the caches (slabs_scanned > 0) and, pruning clean inodes, drops
# their page cache (kswapd_inodesteal + pginodesteal > 0).
set -eu
mmsim=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$mmsim" run scenarios/seed004-v1-fsmark.conf --quiet --json "$tmp/r.json"
python3 - "$tmp/r.json" <<'PY'
import json, sys
v = json.load(open(sys.argv[1]))["vmstat"]
assert v["slabs_scanned"] > 0, v["slabs_scanned"]
assert v["slabs_scanned"] % 128 == 0, v["slabs_scanned"]  # whole SHRINK_BATCHes
steal = v["kswapd_inodesteal"] + v["pginodesteal"]
assert steal > 0, steal
assert v["nr_slab_reclaimable"] > 0
print("ok   seed004-v1-fsmark: slabs_scanned %d, inodesteal %d (kswapd %d)"
      % (v["slabs_scanned"], steal, v["kswapd_inodesteal"]))
PY
