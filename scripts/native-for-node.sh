#!/usr/bin/env bash
# Makes this checkout's native module (better-sqlite3) load on one Node.js version: builds it against that
# version's headers once, keeps the build in the cache beside the Node binaries, and copies it into
# node_modules. A native module is built per Node ABI (process.versions.modules); the other native
# dependencies (@node-rs/argon2, the build tools) are N-API prebuilds that load on every version.
#
#   scripts/native-for-node.sh "$(scripts/node-dist.sh 26.12.1)"
#   scripts/native-for-node.sh --build-only DIR    only fills the cache (CI builds ahead in the background)
#
# The build runs in a copy of node_modules/better-sqlite3 outside the checkout, with npm_config_nodedir
# set to the version's own include/node, so node-gyp downloads nothing (only the npm registry answers).
# scripts/node-versions.json's `nativeHeaders` may name another release of the same line to build
# against instead (same ABI): Node 24.19+'s node_object_wrap.h makes better-sqlite3 12 abort the process
# when the garbage collector frees a statement outside JavaScript (docs/deployment.md).
set -euo pipefail
cd "$(dirname "$0")/.."

build_only=false
if [ "${1:-}" = "--build-only" ]; then
  build_only=true
  shift
fi
node_dir="${1:?usage: scripts/native-for-node.sh [--build-only] NODE_DIR (printed by scripts/node-dist.sh)}"
node_bin="$node_dir/bin/node"
module="node_modules/better-sqlite3"
target="$module/build/Release/better_sqlite3.node"
module_version="$(node -p "require('./$module/package.json').version")"
abi="$("$node_bin" -p process.versions.modules)"
cache="${LANEBOARD_NODE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/laneboard-node}"
headers_version="$(node -p "require('./scripts/node-versions.json').nativeHeaders?.[process.argv[1]] ?? ''" \
  "$("$node_bin" -p process.versions.node)")"
headers_dir="$node_dir"
build_name="better-sqlite3-$module_version-abi$abi"
if [ -n "$headers_version" ]; then
  headers_dir="$(scripts/node-dist.sh "$headers_version")"
  build_name="$build_name-headers$headers_version"
  headers_abi="$("$headers_dir/bin/node" -p process.versions.modules)"
  if [ "$headers_abi" != "$abi" ]; then
    echo "native-for-node: Node $headers_version (ABI $headers_abi) cannot build for ABI $abi" >&2
    exit 1
  fi
fi
cached="$cache/native/$build_name/better_sqlite3.node"

if [ ! -f "$cached" ]; then
  echo "native-for-node: building better-sqlite3 $module_version for Node $("$node_bin" --version) (ABI $abi)" \
    "against the headers of $("$headers_dir/bin/node" --version)" >&2
  mkdir -p "$cache/native"
  work="$(mktemp -d "$cache/native/.build-XXXXXX")"
  trap 'rm -rf "$work"' EXIT
  cp -r "$module/." "$work/"
  rm -rf "$work/build"
  # `npm run` puts npm's own node-gyp on PATH; the version's node comes first so node-gyp builds for it.
  (cd "$work" && PATH="$node_dir/bin:$PATH" npm_config_nodedir="$headers_dir" npm run --silent build-release >"$work.log" 2>&1) || {
    tail -n 40 "$work.log" >&2
    rm -f "$work.log"
    exit 1
  }
  rm -f "$work.log"
  mkdir -p "$(dirname "$cached")"
  cp "$work/build/Release/better_sqlite3.node" "$cached.tmp"
  mv "$cached.tmp" "$cached"
fi

if [ "$build_only" = true ]; then exit 0; fi

# A copy, not a link: the file is replaced whole, so a process that already loaded the old one keeps it.
cp "$cached" "$target.tmp"
mv "$target.tmp" "$target"
"$node_bin" -e "new (require('better-sqlite3'))(':memory:').prepare('select 1').get()"
