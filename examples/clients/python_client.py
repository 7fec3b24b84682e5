"""mcp-faultsim client harness for the Python SDK's client (PyPI `mcp` 2.x).

Speaks the JSON-lines protocol of examples/clients/README.md on stdin/stdout: `connect` opens a
ClientSession over streamable HTTP (a second `connect` replaces the session), `call`/`list` run
concurrently, `close` ends. Run with the venv of .ci/python-venv.sh: `.venv-mcp/bin/python
examples/clients/python_client.py`.

The revision `connect` names picks the ClientSession's handshake: 2025-11-25 (and "default": the
handshake a ClientSession user writes, `initialize()`) or 2026-07-28 (`discover()`: `server/discover`,
then sessionless requests stamped with the revision's `_meta`). The package's high-level `Client`
would probe `server/discover` first by default (mode='auto'); this harness drives the session itself.
"""

import asyncio
import json
import sys
from contextlib import AsyncExitStack

from mcp import types
from mcp.client.session import ClientSession
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError

REQUEST_TIMEOUT = -32001
CONNECTION_CLOSED = -32000


def emit(message: dict) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def classify(e: BaseException) -> dict:
    text = f"{type(e).__name__}: {e}"
    if isinstance(e, MCPError):
        text = f"MCPError {e.code}: {e.message}"
        # Before the timeout code: a server's 404 body is surfaced as is, and the SDK v1 servers (and
        # the model) spell "Session not found" with -32001, the Python SDK's own REQUEST_TIMEOUT code.
        if "Session terminated" in e.message or "Session not found" in e.message:
            return {"message": text, "kind": "session"}
        if e.code == REQUEST_TIMEOUT:
            return {"message": text, "kind": "timeout"}
    if isinstance(e, (TimeoutError, asyncio.TimeoutError)):
        return {"message": text, "kind": "timeout"}
    return {"message": text, "kind": "other"}


class Harness:
    def __init__(self) -> None:
        self.stack: AsyncExitStack | None = None
        self.session: ClientSession | None = None
        # The agent's request timeout in seconds; None: none set (the SDK's default: no MCP-level timeout).
        self.timeout: float | None = 5.0
        self.tasks: set[asyncio.Task] = set()

    async def connect(self, url: str, timeout_ms: int | None, revision: str) -> None:
        await self.disconnect()
        self.timeout = None if timeout_ms is None else timeout_ms / 1000
        if revision not in ("default", "2025-11-25", "2026-07-28"):
            message = f"this client speaks 2025-11-25 and 2026-07-28, not {revision}"
            emit({"event": "connect-failed", "error": {"message": message, "kind": "unsupported-revision"}})
            return
        stack = AsyncExitStack()
        try:
            streams = await stack.enter_async_context(streamable_http_client(url))
            read, write = streams[0], streams[1]
            options = {} if self.timeout is None else {"read_timeout_seconds": self.timeout}
            session = await stack.enter_async_context(ClientSession(read, write, **options))
            handshake = session.discover() if revision == "2026-07-28" else session.initialize()
            await (handshake if self.timeout is None else asyncio.wait_for(handshake, self.timeout))
        except BaseException as e:  # noqa: BLE001 - every failure is reported, none ends the harness
            try:
                await stack.aclose()
            except BaseException:  # noqa: BLE001
                pass
            emit({"event": "connect-failed", "error": {**classify(e), "kind": "connect"}})
            return
        self.stack, self.session = stack, session
        emit({"event": "connected", "revision": session.protocol_version})

    async def disconnect(self) -> None:
        stack, self.stack, self.session = self.stack, None, None
        if stack is not None:
            # In this task, not under wait_for (a new task): anyio's cancel scopes must be left in the
            # task that entered them, or the old session's cancellation escapes into this one.
            try:
                async with asyncio.timeout(2):
                    await stack.aclose()
            except BaseException:  # noqa: BLE001
                pass

    async def call(self, op: dict) -> None:
        session = self.session
        if session is None:
            emit({"id": op["id"], "error": {"message": "not connected", "kind": "connect"}})
            return
        try:
            if op["op"] == "list":
                r = await session.list_tools(params=types.PaginatedRequestParams(_meta=op.get("meta")))
                content = [{"type": "text", "text": ",".join(t.name for t in r.tools)}]
            else:
                progress = (lambda *_: None) if op.get("progress") else None
                options = {} if self.timeout is None else {"read_timeout_seconds": self.timeout}
                r = await session.call_tool(
                    op["tool"], op.get("arguments") or {}, progress_callback=progress, meta=op.get("meta"), **options,
                )
                content = [c.model_dump(mode="json", exclude_none=True) for c in r.content]
            emit({"id": op["id"], "result": {"content": content}})
        except BaseException as e:  # noqa: BLE001
            emit({"id": op["id"], "error": classify(e)})

    async def run(self) -> None:
        loop = asyncio.get_running_loop()
        reader = asyncio.StreamReader()
        await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
        while line := await reader.readline():
            try:
                op = json.loads(line)
            except ValueError:
                continue
            if op.get("op") == "connect":
                await self.connect(op["url"], op.get("timeoutMs", 5000), op.get("revision", "default"))
            elif op.get("op") in ("call", "list"):
                task = asyncio.create_task(self.call(op))
                self.tasks.add(task)
                task.add_done_callback(self.tasks.discard)
            elif op.get("op") == "close":
                break
        for task in self.tasks:
            task.cancel()
        await self.disconnect()


if __name__ == "__main__":
    asyncio.run(Harness().run())
