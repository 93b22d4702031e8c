#!/usr/bin/env bash
# The Dockerfile's steps on this host, for machines without a Docker engine (and for CI): in a
# temporary folder, the build stage (npm ci, npm run build), then the runtime stage (dist/ and the
# package files only, npm ci --omit=dev), then the image's command as a user who is not root,
# until /healthz answers healthy and /readyz ready. Prints the resident memory of the worker and
# its tool server child, stops the worker and removes the folder. Exit 0: the image's steps reach a healthy worker.
#
# Always on an embedded Postgres of its own (DATABASE_URL is not passed on: the steps must not
# migrate someone's database). Environment:
#   IMAGE_STEPS_USER      who runs the worker when this runs as root (default: nobody)
#   IMAGE_STEPS_TIMEOUT   seconds to wait for healthy (default: 120)
#   IMAGE_STEPS_KEEP=1    keep the temporary folder (its path is printed)
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
RUN_AS="${IMAGE_STEPS_USER:-nobody}"
TIMEOUT="${IMAGE_STEPS_TIMEOUT:-120}"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/image-steps.XXXXXX")"
WORKER_PID=""

step() { printf '\n== %s\n' "$*"; }

cleanup() {
  if [[ -n "$WORKER_PID" ]] && kill -0 "$WORKER_PID" 2>/dev/null; then
    kill -TERM "$WORKER_PID" 2>/dev/null || true
    for _ in $(seq 1 100); do kill -0 "$WORKER_PID" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$WORKER_PID" 2>/dev/null || true
  fi
  if [[ "${IMAGE_STEPS_KEEP:-}" == 1 ]]; then echo "kept $WORK"; else rm -rf "$WORK"; fi
}
trap cleanup EXIT

free_port() {
  node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})"
}

rss_mb() { awk '/^VmRSS:/ { printf "%.0f MB", $2 / 1024 }' "/proc/$1/status" 2>/dev/null || echo "?"; }

step "build stage: the repository's files into $WORK/build"
mkdir -p "$WORK/build"
# What the Docker context holds: tracked and new files, without what .gitignore leaves out.
(cd "$ROOT" && git ls-files -z --cached --others --exclude-standard) | while IFS= read -r -d '' f; do
  [[ -e "$ROOT/$f" ]] || continue # deleted in the working tree
  mkdir -p "$WORK/build/$(dirname "$f")"
  cp -p "$ROOT/$f" "$WORK/build/$f"
done
cd "$WORK/build"
npm ci --ignore-scripts=false --no-audit --no-fund --prefer-offline --loglevel=error
npm run build --silent

step "runtime stage: dist/ and production dependencies in $WORK/runtime"
mkdir -p "$WORK/runtime"
cp package.json package-lock.json "$WORK/runtime/"
cp -r dist "$WORK/runtime/dist"
cd "$WORK/runtime"
npm ci --omit=dev --ignore-scripts=false --no-audit --no-fund --prefer-offline --loglevel=error
for dev in tsx typescript vitest @biomejs/biome; do
  if [[ -e "node_modules/$dev" ]]; then echo "devDependency $dev was installed in the runtime stage" >&2; exit 1; fi
done

step "start: node --max-semi-space-size=4 --max-old-space-size=512 dist/scripts/start.js (the image's CMD)"
DATA_DIR="$WORK/runtime/.data"
mkdir -p "$DATA_DIR"
PORT="$(free_port)"
SLACK_PORT="$(free_port)"
launch=()
if [[ "$(id -u)" == 0 ]]; then
  # As in the image (USER node): Postgres refuses root, and the product should not need it.
  chmod 755 "$WORK"
  chown -R "$RUN_AS" "$DATA_DIR"
  launch=(setpriv --reuid="$RUN_AS" --regid="$(id -g "$RUN_AS")" --clear-groups)
  echo "as $RUN_AS"
fi
# A clean environment like the image's: nothing of this shell's configuration leaks in.
"${launch[@]}" env -i PATH="$PATH" HOME="$DATA_DIR" NODE_ENV=production HOST=127.0.0.1 PORT="$PORT" \
  LOCAL_SLACK_PORT="$SLACK_PORT" DATA_DIR="$DATA_DIR" LOG_LEVEL=info \
  node --max-semi-space-size=4 --max-old-space-size=512 dist/scripts/start.js >"$WORK/worker.log" 2>&1 &
WORKER_PID=$!

health=""
deadline=$((SECONDS + TIMEOUT))
while ((SECONDS < deadline)); do
  if ! kill -0 "$WORKER_PID" 2>/dev/null; then
    echo "the worker exited before it was healthy:" >&2
    tail -n 40 "$WORK/worker.log" >&2
    exit 1
  fi
  if health="$(curl -fsS --max-time 3 "http://127.0.0.1:$PORT/healthz" 2>/dev/null)"; then break; fi
  health=""
  sleep 0.5
done
if [[ -z "$health" ]]; then
  echo "not healthy within ${TIMEOUT}s:" >&2
  tail -n 40 "$WORK/worker.log" >&2
  exit 1
fi
echo "healthz: $health"

# Ready too (the balancer's question): local mode answers Slack's part from the local workspace.
ready=""
for _ in $(seq 1 60); do
  if ready="$(curl -fsS --max-time 3 "http://127.0.0.1:$PORT/readyz" 2>/dev/null)"; then break; fi
  ready=""
  sleep 0.5
done
if [[ -z "$ready" ]]; then
  echo "healthy but not ready within 30s: $(curl -sS --max-time 3 "http://127.0.0.1:$PORT/readyz" 2>&1)" >&2
  exit 1
fi
echo "readyz: $ready"

# The local Slack console is read from dist at run time: it must have been copied there.
curl -fsS --max-time 3 -o /dev/null "http://127.0.0.1:$SLACK_PORT/" || {
  echo "the local Slack console is not served" >&2
  exit 1
}

TOOL_PID="$(pgrep -P "$WORKER_PID" -f 'dist/mcp-server/stdio.js' | head -n 1 || true)"
if [[ -z "$TOOL_PID" ]]; then
  echo "no tool server child (node dist/mcp-server/stdio.js) under the worker" >&2
  exit 1
fi
echo "worker rss: $(rss_mb "$WORKER_PID") (pid $WORKER_PID)"
echo "tool server rss: $(rss_mb "$TOOL_PID") (pid $TOOL_PID)"

kill -TERM "$WORKER_PID"
status=0
wait "$WORKER_PID" || status=$?
WORKER_PID=""
if ((status != 0)); then
  echo "the worker stopped with status $status:" >&2
  tail -n 20 "$WORK/worker.log" >&2
  exit 1
fi
echo "image steps: healthy"
