// Server frameworks nobody here built for, each started as its own docs show (examples/servers/,
// their own package: `npm ci --prefix examples/servers`), each with tools of its own, audited as a
// user would: `--serve`, `--call`/`--args`, credentials from the environment. Bounded with `--only`
// to three scenarios each (the whole audit of each is in docs/audit-servers.md). FAILS, never skips,
// when the frameworks are not installed.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../cli/run.ts';
import { auditCli } from '../../fixtures/audit-cli.ts';
import { FRAMEWORK_SERVERS } from '../../fixtures/servers.ts';
import { setEnv } from '../../fixtures/env.ts';

function requireInstalled(pkg: string): void {
  if (!existsSync(join(ROOT, 'examples/servers/node_modules', pkg, 'package.json')))
    throw new Error(`examples/servers has no ${pkg}: run npm ci --prefix examples/servers`);
}

describe('audit of server frameworks, as their docs start them', () => {
  it('Hono with @hono/mcp (README wiring: one transport, sessionless): no session to strip or forget, a cut stream heals', async () => {
    requireInstalled('@hono/mcp');
    const a = await auditCli(
      ...FRAMEWORK_SERVERS.hono.argv,
      '--only',
      'reinit-live-session,stream-cut-call,strip-session-id,unknown-session',
    );
    expect(a.verdicts).toEqual({
      'reinit-live-session': 'pass',
      'stream-cut-call': 'pass',
      'strip-session-id': 'not applicable',
      'unknown-session': 'not applicable',
    });
    expect(a.evidence['strip-session-id']).toMatch(/no mcp-session-id header to strip/);
    // No session id issued: that, not the server's process, is why a session cannot be forgotten.
    expect(a.why['unknown-session']).toBe('the server issues no session id (Mcp-Session-Id): the requirement does not apply');
  }, 120_000);

  it('mcp-proxy in front of a stdio server, behind its X-API-Key: the re-initialize is refused loudly, the rest passes', async () => {
    requireInstalled('mcp-proxy');
    const restore = setEnv({ NOTES_KEY: 'key-notes-test-9d1' });
    try {
      const a = await auditCli(...FRAMEWORK_SERVERS['mcp-proxy'].argv, '--only', 'reinit-live-session,http-502-call,strip-accept');
      expect(a.verdicts).toEqual({ 'reinit-live-session': 'loud', 'http-502-call': 'pass', 'strip-accept': 'pass' });
      expect(a.evidence['reinit-live-session']).toMatch(/replay handshake failed: HTTP 400/);
    } finally {
      restore();
    }
  }, 120_000);
});
