#!/usr/bin/env bash
# Browser tests drive Debian's Chromium (/usr/bin/chromium); install it when it is missing.
set -euo pipefail
command -v chromium >/dev/null && exit 0
if [ "$(id -u)" != 0 ] && ! command -v sudo >/dev/null; then
  echo "Chromium is missing: install Debian's chromium package (apt-get install chromium)." >&2
  exit 1
fi
sudo=""; [ "$(id -u)" = 0 ] || sudo=sudo
echo "installing Debian's chromium for the browser tests" >&2
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq chromium fonts-liberation >/dev/null
