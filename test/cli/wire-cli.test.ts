// `check --wire` as users drive it: real-SDK rows, JSON verdicts, and one-line errors on bad input.
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { itRejects, run } from './run.ts';

const ROOT = new URL('../..', import.meta.url).pathname;


describe('check --wire', () => {
  it('runs the SDK client against the SDK server and finds the cut-stream hang, shrunk, as JSON', async () => {
    const r = await run('check', '--wire', '--client', 'sdk', '--server', 'sdk-sse', '--faults', 'stream-cut', '--property', 'no-silent-hang', '--runs', '40', '--json');
    expect(r.code).toBe(1);
    const out = JSON.parse(r.stdout);
    expect(out.wire).toEqual({ client: 'sdk', server: 'sdk-sse' });
    expect(out.results[0].verdict).toBe('violated');
    expect(out.results[0].counterexample.faults.map((f: { fault: string }) => f.fault)).toEqual(['stream-cut', 'stream-cut']);
  });

  it('prints the sides and a wire reproduce line in the table', async () => {
    const r = await run('check', '--wire', '--client', 'sdk', '--server', 'sdk-json', '--faults', 'config-reset', '--runs', '5', '--quiet');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('client  sdk\nserver  sdk-json\ntier    wire');
    expect(r.stdout).toContain('skipped: config-reset — this client has no mutable config');
  });

  const bad: [string, string[], RegExp][] = [
    ['a preset without --wire', ['check', '--client', 'sdk'], /--client sdk is real code: add --wire/],
    ['--target without --wire', ['check', '--target', 'http://127.0.0.1:1/mcp'], /--target needs --wire/],
    ['a target off loopback', ['check', '--wire', '--target', 'http://10.0.0.1/mcp'], /not a loopback address/],
    ['two servers', ['check', '--wire', '--server', 'sdk-sse', '--target', 'http://127.0.0.1:1/mcp'], /give one of --server, --target, --serve/],
    ['a target nobody serves', ['check', '--wire', '--target', 'http://127.0.0.1:9/mcp'], /does not answer HTTP/],
    ['a server command that dies', ['check', '--wire', '--serve', 'exit 3'], /exited with status 3 before answering/],
    ['an unknown tool set', ['check', '--wire', '--serve', 'true', '--tools', 'mine'], /unknown --tools 'mine'/],
  ];
  itRejects(bad);
});

describe('check --wire --serve, as a process', () => {
  it('starts the server, runs the plans, stops it, and exits (nothing it started keeps it alive)', () => {
    const serve = 'node node_modules/@modelcontextprotocol/server-everything/dist/index.js streamableHttp';
    const r = spawnSync(process.execPath, ['bin/mcp-faultsim.js', 'check', '--wire', '--client', 'sdk', '--serve', serve, '--faults', 'http-502,server-restart', '--runs', '4', '--quiet', '--json'], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 90_000,
    });
    expect(r.error, 'the CLI did not exit by itself').toBeUndefined();
    expect(r.status, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.wire).toEqual({ client: 'sdk', server: `serve ${serve}` });
    expect(out.stats.faultsApplied['http-502']).toBeGreaterThan(0);
  }, 120_000);
});
