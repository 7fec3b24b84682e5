// The audit pointed at a server written for none of it (test/fixtures/servers/orders-server.mjs: the
// official SDK v2, tools of its own naming with required arguments, a bearer token), as a user runs
// it: a separate CLI process, credentials from the environment or on the command line. Every
// scenario that applies gets a verdict (none `not applicable` for want of a tool); the token given
// either way is in no file written and no line printed; over https with a certificate this test
// generates (openssl) and `--ca`. Traffic stays on 127.0.0.1.
import { PROBES } from '../../../sim/audit/server/probes.ts';
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, tempDir } from '../cli/run.ts';
import { ORDERS } from '../../fixtures/servers.ts';
import { certificates, httpsOrdersServer } from '../../fixtures/tls.ts';

const TOKEN = 'tok-7f3a9c1e-orders';
const CALLS = [...ORDERS.read, ...ORDERS.write];

interface Ended {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `mcp-faultsim audit …argv` in its own process, with `env` added; killed after `limitMs`. */
function audit(argv: readonly string[], env: Record<string, string> = {}, limitMs = 120_000): Promise<Ended> {
  const child = spawn(process.execPath, ['bin/mcp-faultsim.js', 'audit', ...argv], {
    cwd: ROOT,
    env: { ...process.env, ORDERS_TOKEN: TOKEN, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += String(d)));
  child.stderr.on('data', (d) => (stderr += String(d)));
  const timer = setTimeout(() => child.kill('SIGKILL'), limitMs);
  return new Promise((resolve) =>
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    }),
  );
}

/** Every file under `dir`, read whole. */
const filesOf = (dir: string) => readdirSync(dir).map((f) => readFileSync(join(dir, f), 'utf8'));

describe('audit of a server of its own tools, behind a bearer token', () => {
  it('--call/--args/--slow-call/--header-env: a verdict for every scenario that applies; place_order judged for duplicates; the token nowhere', async () => {
    const out = tempDir('orders');
    const slow = ORDERS.slow;
    const r = await audit(['--serve', ORDERS.serve, '--revision', 'dual', ...CALLS, ...slow, ...ORDERS.auth, '--out', out, '--json'], {
      ORDERS_AUTH: `Bearer ${TOKEN}`,
    });
    type Row = {
      name: string;
      verdict: string;
      why: string;
      tool?: string;
      reproduce: { audit: string };
      spec: { checks: { requirement: string; verdict: string; evidence: string }[] };
    };
    const a = JSON.parse(r.stdout) as { scenarios: Row[]; tools: string };
    expect(a.tools).toMatch(/^tools: search_orders \{"customer":"ada"\} \(readOnlyHint: true\) for every call; place_order/);
    // No fault scenario is not applicable (unknown-session forgets the session at the proxy); the probes
    // ask no resilience question (the spec lens judges them).
    const probes = new Set(PROBES.map((p) => p.name));
    const na = a.scenarios.filter((s) => s.verdict === 'not applicable' && !probes.has(s.name));
    expect(na.map((s) => s.name)).toEqual([]);
    expect(na.every((s) => !/tool/.test(s.why))).toBe(true);
    const once = a.scenarios.find((s) => s.name === 'cut-reissue-once')!;
    expect(once.tool).toMatch(/^place_order \(/);
    // The SDK v2 server books the order twice: the proxy cut the stream, the client re-issued (2026-07-28's MUST).
    // The revision gives the server no idempotency key: the protocol's hazard, not the server's silence.
    expect(once.verdict).toBe('protocol hazard');
    expect(once.why).toMatch(/^at-most-once: call \d's side-effecting tool ran 2 times/);
    // The SDK v2 aborts a call whose stream closed, and place_warehouse_order heeds the abort: nothing booked.
    const close = a.scenarios.find((s) => s.name === 'close-cancels')!.spec.checks[0]!;
    expect(close).toMatchObject({ requirement: '2026-07-28/close-is-cancellation', verdict: 'conforms' });
    expect(close.evidence).toMatch(/"\d+ order\(s\) for ada".* at the close and .*: the closed call's work did not land$/);
    expect(a.scenarios[0]!.reproduce.audit).toContain(`--slow-call place_warehouse_order --args '{"customer":"ada","item":"tea"}'`);
    expect(r.code).toBe(1);
    for (const text of [r.stdout, r.stderr, ...filesOf(out)]) expect(text).not.toContain(TOKEN);
    expect(r.stdout).toContain('--header-env Authorization=ORDERS_AUTH');
  }, 180_000);

  it("--header 'Authorization: Bearer …': reproduce lines say <redacted>; the token in no file or line", async () => {
    const out = tempDir('orders-header');
    const r = await audit([
      '--serve',
      ORDERS.serve,
      ...CALLS,
      '--header',
      `Authorization: Bearer ${TOKEN}`,
      '--only',
      'http-502-call',
      '--out',
      out,
    ]);
    expect(r.code).toBe(0);
    for (const text of [r.stdout, r.stderr, ...filesOf(out)]) expect(text).not.toContain(TOKEN);
    expect(filesOf(out).join('\n')).toContain("--header 'Authorization: <redacted>'");
  }, 60_000);

  it('without the token: one line naming 401 and --header, exit 2, no scorecard', async () => {
    const r = await audit(['--serve', ORDERS.serve, ...CALLS, '--quiet']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/answered initialize with HTTP 401 Unauthorized: authentication is missing or wrong .*--header/);
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
  }, 60_000);
});

describe('audit --target https:// on 127.0.0.1', () => {
  it('with --ca the audit runs through its own proxy; without it, one line that names --ca', async () => {
    const tls = certificates();
    const { url, process: server } = await httpsOrdersServer(tls, TOKEN);
    try {
      const env = { ORDERS_AUTH: `Bearer ${TOKEN}` };
      const reach = ['--target', url, ...CALLS, ...ORDERS.auth, '--quiet'];
      const r = await audit([...reach, '--ca', tls.ca, '--only', 'http-502-call,strip-session-id', '--json'], env);
      expect(r.stderr).toBe('');
      const verdicts = Object.fromEntries(
        (JSON.parse(r.stdout) as { scenarios: { name: string; verdict: string }[] }).scenarios.map((s) => [s.name, s.verdict]),
      );
      expect(verdicts).toEqual({ 'http-502-call': 'pass', 'strip-session-id': 'pass' });
      const refused = await audit(reach, env);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toMatch(/does not answer: .*certificate.*give the CA that signed its certificate with --ca FILE/);
      expect(refused.stderr.trimEnd().split('\n')).toHaveLength(1);
    } finally {
      server.kill();
    }
  }, 120_000);
});
