#!/usr/bin/env bash
# tools/check-errors.sh on the tree: no unchecked allocation, no exit() outside src/cli.
set -euo pipefail
src=$(realpath "${MMSIM_SRC:-.}")
cd "$src" && bash tools/check-errors.sh src
