// Revisions found, not assumed (issue 37 item 1), against real servers on loopback: without
// --revision the server is asked (server/discover, initialize with each 2025 revision) and audited in
// every revision it speaks; with --revision the report says where it speaks less than asked, and a
// revision it refused is never claimed (its rows are not applicable, never a failed fault-free run);
// a server that negotiates 2025-06-18 only is named by that exact version in every header.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { run, tempDir } from '../../cli/run.ts';
import { auditJson } from '../../../fixtures/audit-cli.ts';
import { FRAMING, FRAMING_ECHO, ORDERS, withOrdersToken } from '../../../fixtures/servers.ts';

type Audit = { revisions: string[]; speaks?: string[]; revisionsFound: string; scenarios: { name: string; verdict: string }[] };

const audit = (...argv: string[]) => auditJson<Audit>(...argv);

describe('revisions found', () => {
  it('without --revision, a server of both revisions (it answers server/discover) is audited in both', async () => {
    const a = await withOrdersToken('tok-revisions-51a', () =>
      audit('--serve', ORDERS.serve, ...ORDERS.read, ...ORDERS.auth, '--only', 'strip-protocol-version'),
    );
    expect(a.revisions).toEqual(['2025-11-25', '2026-07-28']);
    expect(a.revisionsFound).toMatch(/^revisions found: server\/discover: 2026-07-28; initialize 2025-11-25 → 2025-11-25, /);
    expect(a.scenarios[0]!.verdict).not.toBe('not applicable');
  }, 60_000);

  it('--revision dual on a 2025-11-25 server: 2026-07-28 is not claimed, its rows are not applicable, and the report says so', async () => {
    const a = await audit('--serve', FRAMING, '--revision', 'dual', ...FRAMING_ECHO, '--only', 'strip-protocol-version');
    expect(a.revisions).toEqual(['2025-11-25']);
    expect(a.revisionsFound).toMatch(
      /server\/discover: no supportedVersions; .*; --revision asked for 2026-07-28, which the server does not speak \(not audited\)$/,
    );
    expect(a.scenarios.map((s) => s.verdict)).toEqual(['not applicable']);
  }, 60_000);

  it('a server that negotiates 2025-06-18 only: every header names 2025-06-18, never 2025-11-25; its tools are listed in 2025-06-18', async () => {
    const served = `${FRAMING} --versions 2025-06-18`;
    const echo = ['--call', 'echo', '--args', '{"text":"a"}'];
    const a = await audit('--serve', served, ...echo, '--only', 'unknown-session');
    expect(a.speaks).toEqual(['2025-06-18']);
    expect(a.revisions).toEqual(['2025-11-25']);
    expect(a.revisionsFound).toMatch(/initialize 2025-11-25 → 2025-06-18, .*: speaks 2025-06-18$/);
    expect(a.scenarios[0]!.verdict).toBe('pass');
    const text = await run('audit', '--serve', served, ...echo, '--only', 'unknown-session', '--quiet');
    const header = text.stdout.split('\n')[0]!;
    expect(header).toMatch(/; speaks 2025-06-18 \(negotiated when asked 2025-11-25: the 2025-11-25 scenarios ran in 2025-06-18\)$/);
    const dir = tempDir('speaks');
    await run('audit', '--serve', served, ...echo, '--revision', 'dual', '--only', 'unknown-session', '--quiet', '--out', dir);
    for (const file of ['audit.md', 'audit.html']) {
      const page = readFileSync(join(dir, file), 'utf8');
      expect(page).toMatch(/Speaks 2025-06-18 \(negotiated when asked 2025-11-25/);
      expect(page).not.toMatch(/Speaks 2025-11-25/);
    }
  }, 90_000);
});
