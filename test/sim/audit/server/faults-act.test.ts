// Faults that act on a real server, or say they did not (issue 37 items 2 and 3), against the
// framing fixture on loopback (test/fixtures/servers/framing-server.mjs), which logs what reached
// it: the client's chunked framing reaches the server as sent, and a stripped Transfer-Encoding
// reaches it as a Content-Length; a fault with nothing to act on reads `not tested`; a fault-free
// run that fails reads `broken without faults`; a restart's verdict and evidence do not depend on
// how long the server takes to boot.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FRAMING as FIXTURE, FRAMING_ECHO } from '../../../fixtures/servers.ts';
import { runAudit } from '../../../../sim/audit/server/runner.ts';
import { ServedProcess, servedEndpoint } from '../../../../sim/wire/process/loopback.ts';
import type { ToolMap } from '../../../../sim/wire/protocol/tool-maps.ts';
import { tempDir } from '../../cli/run.ts';
import { auditCli } from '../../../fixtures/audit-cli.ts';

interface Logged {
  method: string;
  rpc: string | null;
  framing: 'chunked' | 'length' | 'none';
}

const logOf = (file: string): Logged[] =>
  readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Logged);

describe('faults that act on a real server, or say they did not', () => {
  it('chunked stays chunked; a stripped Transfer-Encoding reaches the server as a Content-Length, and the row says so', async () => {
    const log = join(tempDir('framing'), 'requests.jsonl');
    const a = await auditCli('--serve', `${FIXTURE} --log ${log}`, ...FRAMING_ECHO, '--only', 'strip-transfer-encoding');
    expect(a.verdicts).toEqual({ 'strip-transfer-encoding': 'pass' });
    const calls = logOf(log).filter((r) => r.rpc === 'tools/call');
    // Every tools/call of the audit's runs arrives chunked, as its client sends it, but the one whose framing was stripped.
    expect(calls.filter((r) => r.framing === 'chunked').length).toBeGreaterThanOrEqual(7);
    expect(calls.filter((r) => r.framing === 'length')).toHaveLength(1);
    expect(a.acted['strip-transfer-encoding']).toMatch(/the server received content-length: .* \(fault-free: chunked: /);
  }, 60_000);

  it('progress-after-fallback: the fault acts, but a server that takes a Content-Length never falls back: not tested, with why', async () => {
    const a = await auditCli('--serve', FIXTURE, ...FRAMING_ECHO, '--only', 'progress-after-fallback');
    expect(a.verdicts).toEqual({ 'progress-after-fallback': 'not tested' });
    expect(a.why['progress-after-fallback']).toMatch(/no fallback to HTTP\+SSE happened/);
    expect(a.acted['progress-after-fallback']).toMatch(/content-length/);
  }, 60_000);

  it('a stream cut on a server that answers with JSON did not act: not tested, never pass', async () => {
    const a = await auditCli('--serve', `${FIXTURE} --json`, ...FRAMING_ECHO, '--only', 'stream-cut-call,strip-accept');
    expect(a.verdicts['stream-cut-call']).toBe('not tested');
    expect(a.why['stream-cut-call']).toBe('the fault did not act (stream-cut: no complete SSE stream to cut)');
    // A header fault on the same server acts (the server received the request without Accept).
    expect(a.acted['strip-accept']).toMatch(/^strip-header:accept: the server received /);
  }, 60_000);

  it('a fault-free run that fails is broken without faults, never stuck, silent or loud', async () => {
    const served = await ServedProcess.start(`${FIXTURE} --fail-calls`);
    const echo = { name: 'echo', args: () => ({ text: 'a' }) };
    const tools: ToolMap = { plain: echo, progress: echo };
    try {
      const a = await runAudit(
        { kind: 'loopback', endpoint: servedEndpoint(served, tools) },
        { serverArgs: '--serve …', only: ['http-502-call', 'held-past-deadline'] },
      );
      for (const s of a.scenarios) {
        expect(s.verdict).toBe('broken without faults');
        expect(s.why).toBe('the fault-free run already fails: 4 call(s) without a result');
        expect(s.evidence).toMatch(/^fault-free run: call 0 error/);
      }
      expect(a.passed).toBe(false);
    } finally {
      await served.stop();
    }
  }, 60_000);

  it('server-restart: the same verdict and evidence for a 0.1 s and a 2.5 s boot (the run waits for the server; no 502 of its own)', async () => {
    const quick = await auditCli('--serve', `${FIXTURE} --boot-ms 100`, ...FRAMING_ECHO, '--only', 'server-restart');
    const slow = await auditCli('--serve', `${FIXTURE} --boot-ms 2500`, ...FRAMING_ECHO, '--only', 'server-restart');
    expect(quick.verdicts).toEqual({ 'server-restart': 'pass' });
    expect(slow.verdicts).toEqual(quick.verdicts);
    expect(slow.evidence).toEqual(quick.evidence);
    expect(slow.evidence['server-restart']).not.toMatch(/502/);
  }, 90_000);
});
