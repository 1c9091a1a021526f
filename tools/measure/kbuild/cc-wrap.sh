#!/bin/sh
# CC for the measured kernel build: runs the gcc driver under rsswatch (tag "job": the whole
# compile job, ru_maxrss over the driver, cc1 and as) and every subprogram the driver starts
# under rsswatch too (tag "sub": cc1, as, each with its own peak and CPU time).
# gcc -wrapper wraps only the first command of a -pipe pipeline (cc1, not as), so `as` is
# found through -B in as-shim/, which runs the real as under rsswatch.
# KBUILD_MEASURE_LOG names the CSV; RSSWATCH the rsswatch binary.
here=$(cd "$(dirname "$0")" && pwd)
exec "$RSSWATCH" "$KBUILD_MEASURE_LOG" job gcc -B"$here/as-shim/" -wrapper "$RSSWATCH,$KBUILD_MEASURE_LOG,sub" "$@"
