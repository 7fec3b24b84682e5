// Messages that point at the fix (issue 37 item 9), against the framing fixture on loopback: a
// server slower to boot than --boot-timeout names --boot-timeout and --target; a wrong --serve-path
// names --serve-path; a 401 that wants X-API-Key names --header-env X-API-Key=…; a header value given
// on the command line never appears in what audit or check --wire print, even where the server's
// answer quoted in a message echoes it back; a JSON error sent without a Content-Type reads as JSON
// with its code in every row's evidence, never as "404 - empty".
import { describe, expect, it } from 'vitest';
import { run } from '../../cli/run.ts';
import { auditCli, auditJson } from '../../../fixtures/audit-cli.ts';
import { FRAMING, FRAMING_ECHO, ORDERS, withOrdersToken } from '../../../fixtures/servers.ts';
import { setEnv } from '../../../fixtures/env.ts';

describe('messages that point at the fix', () => {
  it('a slow boot: one line naming --boot-timeout and --target, exit 2; a longer --boot-timeout lets it run', async () => {
    const slow = `${FRAMING} --boot-ms 2500`;
    const r = await run('audit', '--serve', slow, '--boot-timeout', '1', '--quiet');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /did not answer at .* within 1 s: .*raise --boot-timeout SECONDS, or start it yourself and give its URL with --target\)\n$/,
    );
    const ok = await run('audit', '--serve', slow, '--boot-timeout', '10', '--quiet', '--only', 'http-502-call');
    expect(ok.stderr).toBe('');
    expect(ok.code).toBe(0);
  }, 60_000);

  it('a JSON error body sent without a Content-Type is described as JSON with its code, by scenarios, the spec lens and probes', async () => {
    const r = await run(
      'audit',
      '--serve',
      `${FRAMING} --bare-errors`,
      ...FRAMING_ECHO,
      '--only',
      'unknown-session,made-up-session',
      '--json',
      '--quiet',
    );
    const a = JSON.parse(r.stdout) as { scenarios: { name: string; evidence: string; spec?: { checks: { evidence: string }[] } }[] };
    const row = (name: string) => a.scenarios.find((s) => s.name === name)!;
    const bare = 'JSON (JSON-RPC -32001) sent without a Content-Type';
    expect(row('unknown-session').evidence).toContain(`session-expire on req 3 tools/call → 404 - ${bare};`);
    expect(row('unknown-session').spec!.checks[0]!.evidence).toMatch(
      new RegExp(`^HTTP 404: ${bare.replace(/[()]/g, '\\$&')} to tools/call`),
    );
    expect(row('made-up-session').evidence).toContain(`never issued: HTTP 404: ${bare}`);
    expect(r.stdout).not.toMatch(/404 - empty/);
    // Without the flag the same answers carry their type, and say so.
    const typed = await auditCli('--serve', FRAMING, ...FRAMING_ECHO, '--only', 'unknown-session');
    expect(typed.evidence['unknown-session']).toContain('→ 404 application/json json;');
  }, 60_000);

  it('a wrong path: the 404 is named with its JSON body, and --serve-path', async () => {
    const r = await run('audit', '--serve', FRAMING, '--serve-path', '/wrong', '--quiet');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/answered initialize with HTTP 404, not an MCP answer: \{"error":"not found".*give it with --serve-path PATH/);
  }, 30_000);

  it('a 401 that names X-API-Key: the hint is --header-env X-API-Key=…; the wrong key given is never printed, by audit or check --wire', async () => {
    const restore = setEnv({ FRAMING_KEY: 'key-right-8842', WRONG_KEY: 'key-wrong-5531' });
    try {
      const serve = `${FRAMING} --api-key-env FRAMING_KEY`;
      const none = await run('audit', '--serve', serve, '--quiet');
      expect(none.stderr).toMatch(/HTTP 401 Unauthorized: .*the server names X-API-Key: give it with --header-env X-API-Key=ENVVAR/);
      for (const command of [['audit'], ['check', '--wire', '--call', 'echo', '--args', '{"text":"a"}']]) {
        const wrong = await run(...command, '--serve', serve, '--header-env', 'X-API-Key=WRONG_KEY', '--quiet');
        expect(wrong.code).toBe(2);
        // The server echoes the key it got in its 401 body: nothing of it reaches the output.
        expect(wrong.stderr).toMatch(/HTTP 401/);
        expect(wrong.stdout + wrong.stderr).not.toContain('key-wrong-5531');
      }
      const right = await run(
        'audit',
        '--serve',
        serve,
        '--header-env',
        'X-API-Key=FRAMING_KEY',
        '--json',
        '--quiet',
        '--only',
        'http-502-call',
      );
      expect(right.code).toBe(0);
      expect(right.stdout).not.toContain('key-right-8842');
    } finally {
      restore();
    }
  }, 90_000);

  it('the tools line names a side-effecting tool as judged only where a scenario calls it; times are marked virtual', async () => {
    const argv = [
      '--serve',
      ORDERS.serve,
      ...ORDERS.read,
      ...ORDERS.write,
      ...ORDERS.auth,
      '--revision',
      '2025-11-25',
      '--only',
      'http-502-call',
    ];
    const a = await withOrdersToken('tok-messages-4e0', () => auditJson<{ tools: string; scenarios: { evidence: string }[] }>(...argv));
    expect(a.tools).toMatch(/place_order \{.*\} \(a side effect\), named, but no scenario of this audit calls it$/);
    expect(a.scenarios[0]!.evidence).toMatch(/call 3 ok t=\d+→\d+ \(t: virtual ms\)$/);
  }, 60_000);
});
