#!/usr/bin/env bash
# `npm test`: every check, in the order that fails fastest. Ends with a plain
# "total: N passed, N failed, N skipped" line built from the runners' JSON reports.
set -Eeuo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
export NEXT_TELEMETRY_DISABLED=1
export PATH="$PWD/node_modules/.bin:$PATH"
T0=$SECONDS
step() { printf '\n=== %s  [+%ss]\n' "$*" "$((SECONDS - T0))"; }
mkdir -p reports
rm -f reports/unit-alone.json reports/unit.json reports/unit-isolated.json reports/e2e-timed.json reports/e2e.json reports/pack.json reports/pack.log reports/lint.log

step "system packages (Debian chromium, python3-numpy/scipy: installed as root, else named)"
export CHROMIUM_PATH="${CHROMIUM_PATH:-/usr/bin/chromium}"
bash scripts/install-system-deps.sh

# ESLint and tsc each use one thread: the lint and the import-cycle check run beside the format
# check and the typecheck.
step "lint and import cycles, beside format (prettier --check; npm run format fixes it) and typecheck"
(eslint . --max-warnings=0 && npm run --silent cycles) >reports/lint.log 2>&1 &
lint_pid=$!
prettier --check . --log-level=warn
next typegen >/dev/null
tsc --noEmit
lint_rc=0
wait "$lint_pid" || lint_rc=$?
cat reports/lint.log
if ((lint_rc != 0)); then echo "lint failed (exit $lint_rc)"; exit "$lint_rc"; fi

# As the browser tests: the files that time the event loop or bound a heap run first, one at a
# time; the rest then run on two workers (vitest.config.ts names them).
step "unit tests (vitest), timed files alone"
unit_rc=0
UNIT_SET=alone vitest run --reporter=default --reporter=json --outputFile.json=reports/unit-alone.json || unit_rc=$?

step "build (next build with the standalone server the package ships, then the worker and CLI bundles)"
# tsc --noEmit above checked these files, route types included: the build does not check twice.
ROLLOUT_LENS_STANDALONE=1 ROLLOUT_LENS_TYPECHECKED=1 next build
node scripts/build-node.mjs

# The package check (npm pack, install into an empty prefix, serve a sample run: some 40 s, mostly
# one core on gzip and npm) runs beside the rest of the unit tests, whose timed files ran alone above.
step "unit tests (vitest), the rest on two workers, beside the package check (npm pack, install into an empty prefix, rollout-lens serve a sample run)"
node scripts/pack-test.mjs --report reports/pack.json >reports/pack.log 2>&1 &
pack_pid=$!
# vitest.config.ts: the files that share their worker's modules, then those that each need fresh ones.
UNIT_SET=shared vitest run --reporter=default --reporter=json --outputFile.json=reports/unit.json || unit_rc=$?
UNIT_SET=isolated vitest run --reporter=default --reporter=json --outputFile.json=reports/unit-isolated.json || unit_rc=$?
pack_rc=0
wait "$pack_pid" || pack_rc=$?
cat reports/pack.log

# The specs that time what a user waits for run first, one at a time on a fresh server, so nothing
# else competes for the two cores; the rest then run on two workers (playwright.config.ts).
step "e2e, timed specs alone (playwright + Debian chromium)"
e2e_rc=0
E2E_REPORT=reports/e2e-timed.json playwright test --project=timed || e2e_rc=$?

step "e2e, the rest on two workers"
E2E_REPORT=reports/e2e.json playwright test --project=rest || e2e_rc=$?

step "summary"
node scripts/summary.mjs reports/unit-alone.json,reports/unit.json,reports/unit-isolated.json reports/e2e-timed.json,reports/e2e.json reports/pack.json
echo "test time: $((SECONDS - T0))s"
exit $(( unit_rc != 0 || e2e_rc != 0 || pack_rc != 0 ))
