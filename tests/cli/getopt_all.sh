#!/usr/bin/env bash
# Every subcommand parses GNU-style options: --opt=value is --opt value, an unknown option
# is exit 2 naming it.
set -u
bin=$(realpath "${1:?usage: $0 MMSIM_BINARY}")
src=$(realpath "${MMSIM_SRC:-.}")
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
cd "$t"
fails=0
fail() { echo "FAIL $*"; fails=$((fails + 1)); }
same() { # same NAME -- ARGS-WITH-SPACE -- ARGS-WITH-EQUALS
	local name=$1
	shift 2
	local a=() b=()
	while [ "$1" != -- ]; do a+=("$1"); shift; done
	shift
	b=("$@")
	"$bin" "${a[@]}" >a.out 2>a.err
	local sa=$?
	"$bin" "${b[@]}" >b.out 2>b.err
	local sb=$?
	if [ $sa != 0 ] || [ $sb != 0 ] || ! cmp -s a.out b.out; then
		fail "$name: '--opt v' (status $sa) and '--opt=v' (status $sb) differ"
		head -3 a.err b.err
	else
		echo "ok   $name"
	fi
}
for i in $(seq 1 400); do echo $((i * 7 % 53)); done >t.txt
same run -- run "$src/scenarios/demo.conf" --seed 3 --quiet --json - -- \
	run "$src/scenarios/demo.conf" --seed=3 --quiet --json=-
same replay -- replay t.txt --format txt --policy lru,opt --cache 8,16 -- \
	replay t.txt --format=txt --policy=lru,opt --cache=8,16
same mrc -- mrc t.txt --format txt --points 5 --limit 300 -- mrc t.txt --format=txt --points=5 --limit=300
same convert -- convert t.txt --format txt a.mmt -- convert t.txt --format=txt b.mmt
cmp -s a.mmt b.mmt || fail "convert outputs differ"
export MMSIM_RUN_CMD="$src/tests/fixtures/fake-run.sh" MMSIM_BIN="$bin"
printf 'workload = fake\n' >s.conf
same compare -- compare s.conf --arm a --runs 2 --db r.db --no-progress -- \
	compare s.conf --arm=a --runs=2 --db=r.db --no-progress
same report -- report 1 --db r.db -- report 1 --db=r.db
for cmd in run compare sweep results import report plot replay mrc capture convert; do
	"$bin" "$cmd" --no-such-option x >/dev/null 2>err
	st=$?
	if [ $st = 2 ] && grep -q -- "--no-such-option" err; then
		:
	else
		fail "$cmd --no-such-option: status $st: $(head -1 err)"
	fi
done
"$bin" capture --page-shift=99 -- true >/dev/null 2>err
[ $? = 2 ] && grep -q 'page-shift' err || fail "capture --page-shift=99"
[ $fails = 0 ] && echo "ok   every subcommand refuses an unknown option with exit 2"
exit $((fails > 0))
