#!/usr/bin/env bash
# The HTML report loads in headless Chromium without console errors. Skipped (exit 77) where
# Chromium is not installed. A copy of the page gets a probe script that records script
# errors and failed resource loads into the DOM, which --dump-dom then shows.
set -euo pipefail
bin=$(realpath "${1:?usage: $0 MMSIM_BINARY}")
src=$(realpath "${MMSIM_SRC:-.}")
chromium=${CHROMIUM:-/usr/bin/chromium}
if [ ! -x "$chromium" ]; then
  echo "SKIP: $chromium not found (install chromium to run this test)"
  exit 77
fi
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
export MMSIM_RUN_CMD="$src/tests/fixtures/fake-run.sh"
cd "$t"
printf 'workload = fake\n' > s.conf
"$bin" compare s.conf --arm vanilla --arm throttle:vm.max_reclaiming_tasks_per_zone=3 \
  --runs 3 --db r.db > /dev/null 2>&1
"$bin" sweep s.conf --vary g=1,2,3 --arm vanilla --arm throttle:vm.max_reclaiming_tasks_per_zone=3 \
  --runs 2 --db r.db > /dev/null 2>&1
"$bin" report 1 2 --db r.db --out rep > /dev/null 2>&1

probe='<script>window.__errs=[];addEventListener("error",function(e){__errs.push(e.message||("load failed: "+((e.target&&(e.target.src||e.target.href))||"?")))},true);var ce=console.error;console.error=function(){__errs.push([].join.call(arguments," "));ce.apply(console,arguments)};addEventListener("load",function(){document.body.setAttribute("data-probe","loaded errors="+__errs.length+" "+__errs.join(" | "))})</script>'
page=$(< rep/index.html)
shopt -u patsub_replacement 2> /dev/null || true # bash 5.2: '&' would mean the match
printf '%s\n' "${page/<head>/<head>$probe}" > rep/probe.html

timeout 60 "$chromium" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
  --disable-background-networking --disable-component-update --disable-sync \
  --user-data-dir="$t/profile" --enable-logging=stderr --v=0 \
  --dump-dom "file://$t/rep/probe.html" > dom.html 2> chromium.err || true

if ! grep -q 'data-probe="loaded errors=0 ' dom.html; then
  echo "FAIL: page did not load cleanly:" >&2
  grep -o 'data-probe="[^"]*"' dom.html >&2 || echo "(no probe result)" >&2
  tail -20 chromium.err >&2
  exit 1
fi
if grep -E 'CONSOLE|Uncaught' chromium.err; then
  echo "FAIL: console messages above" >&2
  exit 1
fi
[ "$(grep -c '<svg' dom.html)" -ge 3 ] || { echo "FAIL: graphs not in the DOM" >&2; exit 1; }
echo "HTML report loads in Chromium with no console errors"
