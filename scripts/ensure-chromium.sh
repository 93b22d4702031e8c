#!/usr/bin/env bash
# The browser test (bot/e2e.test.ts) drives Debian's Chromium at /usr/bin/chromium (playwright-core
# downloads no browser). Install it when it is missing and we may; otherwise say what to do.
set -euo pipefail
CHROMIUM=/usr/bin/chromium
if [ -x "$CHROMIUM" ]; then
  exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
  echo "ensure-chromium: $CHROMIUM is missing and we are not root;" \
    "install it with: sudo apt-get install -y chromium" >&2
  exit 0
fi
echo "ensure-chromium: installing Debian's chromium (for bot/e2e.test.ts)…" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >/dev/null
apt-get install -y -qq chromium >/dev/null
[ -x "$CHROMIUM" ] || { echo "ensure-chromium: chromium installed but $CHROMIUM is not there" >&2; exit 1; }
echo "ensure-chromium: $("$CHROMIUM" --version 2>/dev/null || echo chromium) ready" >&2
