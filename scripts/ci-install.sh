#!/usr/bin/env bash
# CI's `npm ci`, with better-sqlite3's native build beside the download instead of after it.
# No prebuilt binary can be fetched here (github.com is out of reach), so its install script
# compiles SQLite's one-file amalgamation: 73-90 s on one core, while npm ci's download and
# extraction (some 50 s) leave that core idle. So the locked tarball is fetched from the registry
# first, checked against the lockfile's integrity, and compiled in a scratch directory while
# `npm ci --ignore-scripts` installs everything; its build/ then goes into node_modules. Any
# failure on that path falls back to building in place, as plain `npm ci` does.
set -Eeuo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

lock() { node -p "require('./package-lock.json').packages['node_modules/$1'].$2"; }
version=$(lock better-sqlite3 version)
integrity=$(lock better-sqlite3 integrity)
scratch=$(mktemp -d /tmp/rollout-lens-sqlite-build-XXXX)
trap 'rm -rf "$scratch"' EXIT

early_build() {
  cd "$scratch"
  npm pack "better-sqlite3@$version" --silent >/dev/null
  local tgz="better-sqlite3-$version.tgz"
  local sum
  sum="sha512-$(openssl dgst -sha512 -binary "$tgz" | base64 -w0)"
  if [[ "$sum" != "$integrity" ]]; then
    echo "better-sqlite3 $version: the registry's tarball is not the lockfile's ($sum)"
    return 1
  fi
  tar xzf "$tgz"
  cd package
  # Its own install script: prebuild-install is absent here, so node-gyp (npm's) compiles.
  npm run install --silent
}

early_build >"$scratch.log" 2>&1 &
build_pid=$!

npm ci --ignore-scripts --no-audit --no-fund
# The lockfile's other packages with an install script (esbuild checks its platform binary).
mapfile -t scripted < <(node -e '
  const { packages } = require("./package-lock.json");
  for (const [at, p] of Object.entries(packages))
    if (p.hasInstallScript && at !== "node_modules/better-sqlite3") console.log(at.split("node_modules/").pop());
')
if ((${#scripted[@]} > 0)); then npm rebuild "${scripted[@]}"; fi

if wait "$build_pid" && [[ -f "$scratch/package/build/Release/better_sqlite3.node" ]]; then
  rm -rf node_modules/better-sqlite3/build
  cp -r "$scratch/package/build" node_modules/better-sqlite3/build
  echo "better-sqlite3 $version: compiled beside the download"
else
  echo "better-sqlite3 $version: the early build failed, building in place:"
  tail -20 "$scratch.log" || true
  npm rebuild better-sqlite3
fi
rm -f "$scratch.log"
node -e "new (require('better-sqlite3'))(':memory:').prepare('select 1').get()"
