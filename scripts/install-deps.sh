#!/usr/bin/env bash
# Installs the Debian packages mmsim needs, only those missing. Needs root (or sudo).
set -euo pipefail
pkgs=(build-essential cmake pkg-config git libcmocka-dev libcjson-dev libsqlite3-dev
      libzstd-dev zstd zlib1g-dev gnuplot-nox valgrind chromium jq python3 sqlite3)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "installing: ${missing[*]}"
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO=sudo
$SUDO apt-get update -q
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
