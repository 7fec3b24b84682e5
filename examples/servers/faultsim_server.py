"""The faultsim tool set on the Python MCP SDK (PyPI `mcp` 2.3.0), served over Streamable HTTP.

Run it through the wire tier (the venv comes from .ci/python-venv.sh):

    mcp-faultsim check --wire --client sdk2,protocol=2026-07-28 --tools faultsim \
      --serve ".venv-mcp/bin/python examples/servers/faultsim_server.py --port {port}"

The tools match the in-process servers' (wire/peers/sdk-server.ts, wire/peers/sdk2-server.ts) and
`--tools faultsim`: `work` returns non-empty content; `progress` (and `probe`) sends two
`notifications/progress` first when the call asks for progress. Each names the workload's call id,
which the wire tier sends as `_meta['io.faultsim/call']`.

The SDK serves both revisions on one endpoint: a request whose MCP-Protocol-Version header names
2026-07-28 goes to its sessionless entry, an `initialize` opens a 2025-11-25 session. `--json`
answers with one JSON body instead of SSE; `--stateless` serves 2025-11-25 without sessions.
"""

from __future__ import annotations

import argparse

from mcp.server.mcpserver import Context, MCPServer

META_CALL = "io.faultsim/call"
PROGRESS_STEPS = (50, 100)


def call_of(ctx: Context) -> int:
    meta = ctx.request_context.meta or {}
    value = meta.get(META_CALL)
    return value if isinstance(value, int) else -1


def build() -> MCPServer:
    server = MCPServer("mcp-faultsim python server", version="0.1.0", log_level="WARNING")

    @server.tool(description="returns non-empty content")
    async def work(ctx: Context) -> str:
        return f"work result for call {call_of(ctx)}"

    async def with_progress(name: str, ctx: Context) -> str:
        # The SDK sends these only when the request carried a progress token.
        for step in PROGRESS_STEPS:
            await ctx.report_progress(step, 100)
        return f"{name} result for call {call_of(ctx)}"

    @server.tool(description="sends notifications/progress, then returns content")
    async def progress(ctx: Context) -> str:
        return await with_progress("progress", ctx)

    @server.tool(description="sends notifications/progress, then returns content")
    async def probe(ctx: Context) -> str:
        return await with_progress("probe", ctx)

    return server


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--json", action="store_true", help="answer with one JSON body (json_response)")
    parser.add_argument("--stateless", action="store_true", help="2025-11-25 without sessions (stateless_http)")
    args = parser.parse_args()
    build().run(transport="streamable-http", host=args.host, port=args.port, json_response=args.json, stateless_http=args.stateless)


if __name__ == "__main__":
    main()
