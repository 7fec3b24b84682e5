#!/usr/bin/env bash
# What the tests need besides the root package (`npm test` runs this first, as `pretest`): the
# packages of examples/clients (the MCP client libraries the harnesses drive) and examples/servers
# (the server frameworks the audit runs against), the Node 24 binary of .ci/node24 (clients whose
# engines need it), the official conformance suite in .ci/conformance (`audit --conformance`), Python's `mcp` in .venv-mcp/ (.ci/python-venv.sh) and Chromium (the HTML
# report's browser test). Idempotent: a package installed since its lock file last changed is left
# as it is, so a second `npm test` (or CI, which installs them itself first) spends no time here.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
for prefix in examples/clients examples/servers .ci/node24 .ci/conformance; do
  stamp="$prefix/node_modules/.package-lock.json"
  if [ -f "$stamp" ] && [ "$stamp" -nt "$prefix/package-lock.json" ]; then continue; fi
  echo "test-setup: npm ci --prefix $prefix"
  npm ci --prefix "$prefix" --no-audit --no-fund --loglevel=error
done
bash .ci/python-venv.sh
if ! command -v chromium >/dev/null; then
  echo "test-setup: installing Debian's chromium (the HTML report's browser test drives it)"
  if [ "$(id -u)" = 0 ]; then
    apt-get update -qq && apt-get install -y -qq chromium
  else
    echo "test-setup: chromium is missing and this is not root: run 'apt-get install -y chromium' (the browser test fails without it)" >&2
  fi
fi
