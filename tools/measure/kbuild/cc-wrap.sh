#!/bin/sh
# CC for the measured kernel build: runs the gcc driver under rsswatch (tag "job": the whole
# compile job, ru_maxrss over the driver, cc1 and as) and every subprogram the driver starts
# under rsswatch too (gcc -wrapper; tag "sub": cc1, as, each with its own peak and CPU time).
# KBUILD_MEASURE_LOG names the CSV; RSSWATCH the rsswatch binary.
exec "$RSSWATCH" "$KBUILD_MEASURE_LOG" job gcc -wrapper "$RSSWATCH,$KBUILD_MEASURE_LOG,sub" "$@"
