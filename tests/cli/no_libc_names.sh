#!/usr/bin/env bash
# No function or variable of mmsim takes the name of one the C library exports: a definition
# would take the library's place for every caller, the library itself and the sanitizers
# included (a model `sched_yield` once ran inside LeakSanitizer's exit check).
set -eu
mmsim=$1
libc=$(ldd "$mmsim" | awk '/libc\.so/ {print $3}')
if ! command -v nm >/dev/null || [ ! -r "$libc" ]; then
	echo "SKIP: nm or the C library not found"
	exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
nm --defined-only "$mmsim" | awk '$2 ~ /^[TDBR]$/ {print $3}' | sort -u >"$tmp/ours"
nm -D --defined-only "$libc" | awk '{print $3}' | sed 's/@.*//' | grep -v '^_' | sort -u >"$tmp/libc"
clash=$(comm -12 "$tmp/ours" "$tmp/libc")
if [ -n "$clash" ]; then
	echo "FAIL: mmsim defines C library names: $clash"
	exit 1
fi
echo "ok: $(wc -l <"$tmp/ours") symbols, none of the C library's $(wc -l <"$tmp/libc")"
