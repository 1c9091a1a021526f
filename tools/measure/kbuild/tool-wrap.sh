#!/bin/sh
# AR/LD for the measured kernel build: TOOL_TAG=ar|ld, runs the real tool under rsswatch.
tag=$1
shift
exec "$RSSWATCH" "$KBUILD_MEASURE_LOG" "$tag" "$@"
