// `mcp-faultsim proxy` as a user runs it (a separate process): a plan file applied to a client the
// test drives over real HTTP, the history printed as it goes, SIGINT ending it cleanly; a redirect
// from the server goes back to the client, never followed; a non-loopback target is refused.
import { writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { runCli, startCli, type Running } from './process.ts';
import { tempDir } from './run.ts';

const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'test', version: '1' } },
});

const post = (url: string) =>
  fetch(url, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: INITIALIZE,
  });

async function listening(p: Running): Promise<string> {
  for (let i = 0; i < 300; i++) {
    const m = /proxy listening on (\S+)/.exec(p.stdout());
    if (m) return m[1]!;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`the proxy did not start: ${p.stderr()}`);
}

function planFile(plan: unknown): string {
  const path = join(tempDir('proxy'), 'plan.json');
  writeFileSync(path, JSON.stringify(plan));
  return path;
}

const servers: Server[] = [];
afterEach(() => {
  for (const s of servers.splice(0)) s.close();
});

async function serve(handler: Parameters<typeof createServer>[1]): Promise<string> {
  const s = createServer(handler);
  servers.push(s);
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  return `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
}

it('applies a plan file to the client that connects, prints each entry, and stops on SIGINT', async () => {
  const p = startCli(['proxy', '--plan', planFile([{ fault: 'http-502', at: 1 }])]);
  const url = await listening(p);
  expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
  const first = await post(url);
  expect(first.status).toBe(200);
  expect(((await first.json()) as { result: { protocolVersion: string } }).result.protocolVersion).toBe('2025-11-25');
  const second = await post(url);
  expect(second.status).toBe(502);
  await second.body?.cancel();
  p.child.kill('SIGINT');
  const ended = await p.ended;
  expect(ended.hung).toBe(false);
  expect(ended.code).toBe(0);
  expect(ended.stdout).toContain('plan http-502 at request 1');
  expect(ended.stdout).toMatch(/request 0: POST initialize/);
  expect(ended.stdout).toMatch(/fault http-502 at request 1: load balancer answered 502/);
  expect(ended.stdout).toMatch(/response 1: 502 .* from the load balancer/);
  expect(ended.stdout).toContain('stopped by SIGINT after 2 requests');
}, 60_000);

it('refuses a target that redirects, in one line and exit 2, and never follows it, not even to loopback', async () => {
  let elsewhere = 0;
  const other = await serve((_req, res) => (elsewhere++, res.end('{}')));
  const redirecting = await serve((_req, res) => res.writeHead(307, { location: `${other}/mcp` }).end());
  const r = await runCli(['proxy', '--plan', planFile([]), '--target', `${redirecting}/mcp`], 30_000);
  expect(r.code).toBe(2);
  expect(r.stderr.trim().split('\n')).toHaveLength(1);
  expect(r.stderr).toMatch(/answered HTTP 307, a redirect to another origin/);
  expect(elsewhere).toBe(0);
}, 60_000);

it('refuses a target off loopback, a bad plan and an unknown fault with one line and exit 2', async () => {
  for (const [argv, message] of [
    [['--plan', planFile([]), '--target', 'http://10.1.2.3/mcp'], /not a loopback address/],
    [['--plan', planFile({ nope: 1 })], /not a counterexample file nor a plan/],
    [['--plan', planFile([{ fault: 'no-such-fault', at: 0 }])], /unknown fault 'no-such-fault'/],
    [[], /proxy needs --plan FILE/],
  ] as const) {
    const r = await runCli(['proxy', ...argv], 30_000);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(message);
  }
}, 120_000);
