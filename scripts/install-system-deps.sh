#!/usr/bin/env bash
# The system packages the tests need besides node_modules: Debian's Chromium (the e2e browser,
# CHROMIUM_PATH) and python3-numpy/python3-scipy (lib/compare/reference.py, the compare statistics'
# independent reference). Installs what is missing with apt-get when run as root; otherwise prints
# exactly what to install and exits 1. Called by scripts/test-all.sh (`npm test`) and .ci/run.
set -Eeuo pipefail

CHROMIUM_PATH="${CHROMIUM_PATH:-/usr/bin/chromium}"
missing=()
[ -x "$CHROMIUM_PATH" ] || missing+=(chromium fonts-liberation)
python3 -c 'import numpy, scipy' 2>/dev/null || missing+=(python3 python3-numpy python3-scipy)

if [ "${#missing[@]}" -eq 0 ]; then
  "$CHROMIUM_PATH" --version 2>/dev/null || true
  exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
  {
    echo "The tests need system packages that are missing: ${missing[*]}"
    echo "Install them (Debian/Ubuntu), then run npm test again:"
    echo "  sudo apt-get update && sudo apt-get install -y --no-install-recommends ${missing[*]}"
    [ -x "$CHROMIUM_PATH" ] || echo "(or point CHROMIUM_PATH at a Chromium you have; now: $CHROMIUM_PATH)"
  } >&2
  exit 1
fi

if ! command -v apt-get >/dev/null; then
  echo "The tests need ${missing[*]} and there is no apt-get here: install them by hand." >&2
  exit 1
fi
echo "=== installing Debian ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
for i in 1 2 3; do apt-get update -qq && break; sleep 5; done
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
"$CHROMIUM_PATH" --version 2>/dev/null || true
