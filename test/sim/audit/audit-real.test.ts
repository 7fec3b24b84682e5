// The audit against real servers no one here wrote, each started by the audit itself on loopback
// (`--serve`), as a user runs it: the Python MCP SDK server (mcp 2.3.0, both revisions; FAILS, not
// skips, without its venv), @modelcontextprotocol/server-everything and punkpeye's fastmcp.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ServedProcess } from '../../../sim/wire/loopback.ts';
import { ROOT } from '../cli/run.ts';
import { auditCli } from '../../fixtures/audit-cli.ts';

import { EVERYTHING, FASTMCP, PYTHON_SERVER } from '../../fixtures/servers.ts';
const NA = 'not applicable';

/** A server in another process cannot be told to forget one session: the audit says so. */
const LEGACY_SERVER = {
  'reinit-live-session': 'loud',
  'unknown-session': NA,
  'server-restart': 'pass',
  'stream-cut-call': 'pass',
  'http-502-call': 'pass',
  'held-past-deadline': 'pass',
  'strip-accept': 'pass',
  'strip-session-id': 'pass',
  'strip-last-event-id': 'pass',
  'strip-transfer-encoding': 'pass',
  'progress-after-fallback': 'pass',
  'strip-protocol-version': NA,
  'cut-reissue-once': NA,
};

describe('audit --serve against real servers', () => {
  it('the Python MCP server (mcp 2.3.0) in both revisions: every scenario that acts passes', async () => {
    const python = join(ROOT, '.venv-mcp/bin/python');
    if (!existsSync(python))
      throw new Error(`no Python venv at ${python}: run .ci/python-venv.sh (the audit of a Python server cannot start)`);
    const a = await auditCli('--serve', PYTHON_SERVER, '--tools', 'faultsim', '--revision', 'dual');
    expect(a.verdicts).toEqual({
      ...LEGACY_SERVER,
      'reinit-live-session': 'pass',
      'strip-protocol-version': 'pass',
      'cut-reissue-once': NA,
    });
    expect(a.code).toBe(0);
    // It answers a tools/call without Accept (200), where the TypeScript SDK refuses it (406).
    expect(a.evidence['strip-accept']).toMatch(/strip-header:accept on req 3 tools\/call → 200/);
    expect(a.evidence['strip-protocol-version']).toMatch(/→ 400/);
  }, 120_000);

  it('server-everything: the re-initialize on a live session is loud; a restart is answered 400 (not 404) and still heals', async () => {
    const a = await auditCli('--serve', EVERYTHING);
    expect(a.verdicts).toEqual(LEGACY_SERVER);
    expect(a.code).toBe(1);
    expect(a.evidence['server-restart']).toMatch(/server-restart on req 3 tools\/call → 400/);
  }, 120_000);

  it("punkpeye's fastmcp (httpStream): the same verdicts as the SDK it is built on", async () => {
    const a = await auditCli('--serve', FASTMCP);
    expect(a.verdicts).toEqual(LEGACY_SERVER);
    expect(a.code).toBe(1);
    expect(a.evidence['reinit-live-session']).toMatch(/replay handshake failed: HTTP 400/);
  }, 120_000);

  it('--target a running server-everything: the faults the tool cannot cause there are not applicable, with why', async () => {
    const served = await ServedProcess.start(EVERYTHING);
    try {
      const a = await auditCli('--target', served.url, '--only', 'unknown-session,server-restart,http-502-call');
      expect(a.verdicts).toEqual({ 'unknown-session': NA, 'server-restart': NA, 'http-502-call': 'pass' });
      expect(a.code).toBe(0);
    } finally {
      await served.stop();
    }
  }, 60_000);
});
