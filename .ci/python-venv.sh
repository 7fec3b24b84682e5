#!/usr/bin/env bash
# The Python side of the wire tier: a virtual environment at .venv-mcp/ (git-ignored) with the
# Python MCP SDK (PyPI `mcp`), for examples/servers/faultsim_server.py and its test
# (test/sim/wire/python-server.test.ts). Idempotent: an environment that already imports the pinned
# version is left as it is. PyPI itself is not reachable from these machines: pip installs from the
# on-disk index they carry (/opt/pypi/simple, also in their pip configuration), and is told not to
# retry the unreachable default index for every package (that alone took minutes).
set -euo pipefail
MCP_VERSION=2.3.0
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv="$root/.venv-mcp"
py="$venv/bin/python"
if [ -x "$py" ] && "$py" -c "import importlib.metadata as m, sys; sys.exit(m.version('mcp') != '$MCP_VERSION')" 2>/dev/null; then
  echo "python-venv: $venv has mcp $MCP_VERSION"
  exit 0
fi
python3 -m venv "$venv"
index=()
[ -d /opt/pypi/simple ] && index=(--index-url file:///opt/pypi/simple)
"$py" -m pip install --quiet --retries 0 --timeout 10 "${index[@]}" "mcp==$MCP_VERSION" \
  2> >(grep -v "is ignored: it is neither a file nor a directory" >&2)
"$py" -c "import importlib.metadata as m; print('python-venv: mcp', m.version('mcp'), 'in $venv')"
