#!/usr/bin/env bash
# The chaos suite's pooler trial (scripts/chaos/) runs Debian's PgBouncer in transaction mode.
# Install it when it is missing and we may (as root); otherwise say how and exit non-zero, so only
# the suite that needs it skips or fails.
set -euo pipefail
PGBOUNCER=/usr/sbin/pgbouncer
if [ -x "$PGBOUNCER" ]; then
  exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
  echo "ensure-pgbouncer: $PGBOUNCER is missing and we are not root;" \
    "install it with: sudo apt-get install -y pgbouncer" >&2
  exit 1
fi
echo "ensure-pgbouncer: installing Debian's pgbouncer (for the chaos suite's pooler trial)…" >&2
export DEBIAN_FRONTEND=noninteractive
# Only refresh the package lists when apt does not know the package yet.
if ! apt-cache show pgbouncer >/dev/null 2>&1; then
  apt-get update -qq >/dev/null
fi
apt-get install -y -qq --no-install-recommends pgbouncer >/dev/null
[ -x "$PGBOUNCER" ] || { echo "ensure-pgbouncer: pgbouncer installed but $PGBOUNCER is not there" >&2; exit 1; }
# The package enables a system service on the default port; the suite runs its own instance.
if command -v systemctl >/dev/null 2>&1 && systemctl is-active --quiet pgbouncer 2>/dev/null; then
  systemctl stop pgbouncer >/dev/null 2>&1 || true
fi
echo "ensure-pgbouncer: $("$PGBOUNCER" --version 2>/dev/null | head -1 || echo pgbouncer) ready" >&2
