#!/usr/bin/env bash
# Test-time Debian packages: browser tests drive Chromium's headless shell
# (/usr/bin/chromium-headless-shell; `make bench-feel` the full /usr/bin/chromium); the PDF tests read the
# sheets back with poppler-utils' pdftotext and check the evidence packets with qpdf. Installs whichever
# is missing.
set -euo pipefail
command -v chromium >/dev/null && command -v chromium-headless-shell >/dev/null && command -v pdftotext >/dev/null && command -v qpdf >/dev/null && exit 0
if [ "$(id -u)" != 0 ] && ! command -v sudo >/dev/null; then
  echo "Chromium, its headless shell, pdftotext or qpdf is missing: install Debian's packages (apt-get install chromium chromium-headless-shell fonts-liberation poppler-utils qpdf)." >&2
  exit 1
fi
sudo=""; [ "$(id -u)" = 0 ] || sudo=sudo
echo "installing Debian's chromium, chromium-headless-shell, poppler-utils and qpdf for the browser and PDF tests" >&2
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq chromium chromium-headless-shell fonts-liberation poppler-utils qpdf >/dev/null
