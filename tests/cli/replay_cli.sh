#!/bin/bash
# End-to-end checks of mmsim replay, mrc, convert and capture. $1 = the mmsim binary.
set -u
M=${1:?usage: replay_cli.sh MMSIM}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

# expect STATUS PATTERN CMD...: run CMD, check exit status and that stdout+stderr match PATTERN
expect() {
	local want=$1 pat=$2
	shift 2
	local out st
	out=$("$@" 2>&1)
	st=$?
	[ "$st" -eq "$want" ] || fail "'$*' exited $st, wanted $want: $out"
	echo "$out" | grep -Eq -- "$pat" || fail "'$*' output lacks /$pat/: $out"
}

# Belady's string: FIFO has 9 faults with 3 frames and 10 with 4
printf '1\n2\n3\n4\n1\n2\n5\n1\n2\n3\n4\n5\n' > "$T/belady.txt"
expect 0 'fifo +3 +12 +3 +9' $M replay "$T/belady.txt" --policy fifo --cache 3,4
expect 0 'fifo +4 +12 +2 +10' $M replay "$T/belady.txt" --policy fifo --cache 3,4
expect 0 '"policy": "opt", "cache": 3, "refs": 12, "hits": 5, "misses": 7' \
	$M replay "$T/belady.txt" --policy opt,lru --cache 3 --json

# convert, and the binary trace replays the same
expect 0 '12 references, 5 distinct pages' $M convert "$T/belady.txt" "$T/b.mmt.zst"
a=$($M replay "$T/belady.txt" --policy lru,clock,fifo,opt,linux,linux+exec --cache 1,2,3,4,5 | tail -n +2)
b=$($M replay "$T/b.mmt.zst" --policy lru,clock,fifo,opt,linux,linux+exec --cache 1,2,3,4,5 | tail -n +2)
[ "$a" = "$b" ] || fail "converted trace replays differently"

# the one-pass curves agree with the replays
expect 0 '^ +3 +10 ' $M mrc "$T/belady.txt" --sizes 3
expect 0 '^ +4 +6 ' $M mrc "$T/belady.txt" --policy opt --sizes 4
expect 0 '"cache": 4, "misses": 8' $M mrc "$T/b.mmt.zst" --sizes 4 --json
$M mrc "$T/belady.txt" --out "$T/curve.txt" > /dev/null || fail "mrc --out"
grep -q '^5 5 ' "$T/curve.txt" || fail "mrc --out lacks the last step: $(cat "$T/curve.txt")"
if command -v gnuplot > /dev/null; then
	$M mrc "$T/belady.txt" --plot "$T/c.svg" > /dev/null || fail "mrc --plot"
	grep -q '<svg' "$T/c.svg" || fail "mrc --plot wrote no svg"
fi

# usage and input errors: status 2, a message naming the problem
expect 0 'usage: mmsim replay' $M replay --help
expect 0 'usage: mmsim mrc' $M mrc --help
expect 0 'usage: mmsim capture' $M capture --help
expect 0 'usage: mmsim convert' $M convert --help
expect 2 'need TRACE' $M replay "$T/belady.txt"
expect 2 "unknown policy 'arc'" $M replay "$T/belady.txt" --policy arc --cache 3
expect 2 'expected positive page counts' $M replay "$T/belady.txt" --policy lru --cache 0
expect 2 'expected lru or opt' $M mrc "$T/belady.txt" --policy fifo
expect 2 'nosuch.lis: No such file' $M replay "$T/nosuch.lis" --policy lru --cache 3
printf '1 2 0 0\n3 x 0 1\n' > "$T/bad.lis"
expect 2 'bad.lis:2: field 2' $M replay "$T/bad.lis" --policy lru --cache 3
expect 2 'bad.lis:2: field 2' $M mrc "$T/bad.lis"
expect 2 'bad.lis:2: field 2' $M convert "$T/bad.lis" "$T/x.mmt"
expect 2 'unknown or incomplete option' $M replay "$T/belady.txt" --bogus
expect 2 "--format: expected" $M replay "$T/belady.txt" --format nope --policy lru --cache 1
expect 2 'no command given' $M capture --out "$T/x.mmt"

# capture a real program when valgrind is there
if command -v valgrind > /dev/null; then
	expect 0 'references, [0-9]+ distinct pages; command exited with status 0' \
		$M capture --out "$T/true.mmt" -- true
	expect 0 'mmsim format' $M replay "$T/true.mmt" --policy lru,linux+exec --cache 64
else
	echo "valgrind not installed: capture not checked"
fi

[ "$fails" -eq 0 ] && echo "replay CLI: all checks passed"
exit $((fails > 0))
