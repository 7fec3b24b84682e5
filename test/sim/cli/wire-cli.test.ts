// `check --wire` as users drive it: real-SDK rows, JSON verdicts, and one-line errors on bad input;
// and, as a separate process, against real servers on loopback: it exits by itself, with output, and
// leaves no process behind.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseArgs } from '../../../sim/cli/args.ts';
import { wireSideArgs } from '../../../sim/cli/wire-check.ts';
import { WIRE_OPTIONS } from '../../../sim/cli/wire-options.ts';
import { ServedProcess } from '../../../sim/wire/process/loopback.ts';
import { groupsStartedBy, leftIn, processTable, runCli, sleep, startCli, waitFor, type PsRow } from './process.ts';
import { itRejects, run } from './run.ts';

const EVERYTHING = 'node node_modules/@modelcontextprotocol/server-everything/dist/index.js streamableHttp';

describe('check --wire', () => {
  it('runs the SDK client against the SDK server and finds the cut-stream hang, shrunk, as JSON', async () => {
    const r = await run(
      'check',
      '--wire',
      '--client',
      'sdk',
      '--server',
      'sdk-sse',
      '--faults',
      'stream-cut',
      '--property',
      'no-silent-hang',
      '--runs',
      '40',
      '--json',
    );
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
    [
      'two servers',
      ['check', '--wire', '--server', 'sdk-sse', '--target', 'http://127.0.0.1:1/mcp'],
      /^mcp-faultsim: check: give one of --server, --target, --serve, not --server and --target together$/m,
    ],
    ['a target nobody serves', ['check', '--wire', '--target', 'http://127.0.0.1:9/mcp'], /does not answer HTTP/],
    ['a server command that dies', ['check', '--wire', '--serve', 'exit 3'], /exited with status 3 before answering/],
    ['an unknown tool set', ['check', '--wire', '--serve', 'true', '--tools', 'mine'], /unknown --tools 'mine'/],
  ];
  itRejects(bad);
});

describe('the reproduce line of a wire check', () => {
  // The wire options are of the wire tier: parsed as check parses them, with --wire.
  const flags = (...argv: string[]) =>
    wireSideArgs(
      parseArgs(['--wire', ...argv], { ...WIRE_OPTIONS, client: { value: true, help: '' }, server: { value: true, help: '' } }, 'check'),
    );

  it('keeps --serve-path and --tools of a loopback server (a faultsim server reproduced without --tools lacks the tools)', () => {
    expect(flags('--serve', 'node s.js {port}', '--tools', 'faultsim', '--serve-path', '/m')).toEqual({
      client: "--client ''",
      server: "--serve 'node s.js {port}' --serve-path /m --tools faultsim",
    });
    expect(flags('--target', 'http://127.0.0.1:9/mcp', '--tools', 'faultsim', '--client-cmd', 'node c.mjs').server).toBe(
      '--target http://127.0.0.1:9/mcp --tools faultsim',
    );
    expect(flags('--server', 'sdk-sse', '--client', 'sdk')).toEqual({ client: '--client sdk', server: '--server sdk-sse' });
  });
});

describe('check --wire --serve, as a process', () => {
  it('starts the server, runs the plans (restarts too), stops it, and exits: nothing it started is left', async () => {
    const cli = startCli(
      [
        'check',
        '--wire',
        '--client',
        'sdk',
        '--serve',
        EVERYTHING,
        '--faults',
        'http-502,server-restart',
        '--runs',
        '4',
        '--quiet',
        '--json',
      ],
      120_000,
    );
    const groups = new Set<number>();
    const watch = setInterval(() => {
      for (const g of groupsStartedBy(cli.child.pid!)) groups.add(g);
    }, 200);
    const r = await cli.ended;
    clearInterval(watch);
    expect(r.hung, 'the CLI did not exit by itself').toBe(false);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.wire).toEqual({ client: 'sdk', server: `serve ${EVERYTHING}` });
    expect(out.stats.faultsApplied['http-502']).toBeGreaterThan(0);
    expect(out.stats.faultsApplied['server-restart']).toBeGreaterThan(0);
    expect(groups.size, 'the served groups were seen').toBeGreaterThan(1);
    expect(leftIn([...groups])).toEqual([]);
  }, 150_000);

  const dies: [string, RegExp][] = [
    ['exit 3', /^mcp-faultsim: --serve command exited with status 3 before answering on port \d+: \(no output on stderr\)\n$/],
    ['true', /^mcp-faultsim: --serve command exited with status 0 before answering/],
  ];
  for (const [command, message] of dies) {
    it(`--serve '${command}': one line on stderr and exit 2 from the process (was exit 13, silent)`, async () => {
      const r = await runCli(['check', '--wire', '--client', 'sdk', '--serve', command, '--runs', '2']);
      expect(r.hung).toBe(false);
      expect({ code: r.code, stdout: r.stdout }).toEqual({ code: 2, stdout: '' });
      expect(r.stderr).toMatch(message);
      expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    });
  }

  it('a run past --watchdog ends the check with outcome watchdog, exit 4, and what was still open', async () => {
    const slow = 'SLOW_MS=20000 node test/sim/wire/fixtures/slow-server.mjs';
    const r = await runCli(
      ['check', '--wire', '--client', 'sdk', '--serve', slow, '--faults', 'http-502', '--runs', '3', '--watchdog', '2', '--json'],
      60_000,
    );
    expect(r.hung).toBe(false);
    expect(r.code, r.stderr).toBe(4);
    const out = JSON.parse(r.stdout);
    expect(out).toMatchObject({
      outcome: 'watchdog',
      run: 1,
      limitMs: 2000,
      why: 'run 1 did not finish within 2 s of wall-clock time (the watchdog)',
    });
    expect(out.open).toEqual([expect.stringMatching(/^POST http:\/\/127\.0\.0\.1:\d+\/mcp$/)]);
    expect(out.results).toBeUndefined();
  }, 90_000);
});

describe('check --wire --target, as a process', () => {
  let served: ServedProcess;
  beforeAll(async () => void (served = await ServedProcess.start(EVERYTHING)), 30_000);
  afterAll(async () => served?.stop());

  it('runs against a running server-everything and exits with the report (was exit 13, no output)', async () => {
    const r = await runCli(
      ['check', '--wire', '--client', 'sdk', '--target', served.url, '--faults', 'http-502', '--runs', '3', '--json'],
      90_000,
    );
    expect(r.hung, 'the CLI did not exit by itself').toBe(false);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.wire.server).toBe(`target ${served.url}`);
    expect(out.results.find((p: { property: string }) => p.property === 'no-silent-hang').reached).toBeGreaterThan(0);
  }, 120_000);

  it('a port with nothing listening: one line, exit 2 (bad input: the server named is not there)', async () => {
    const r = await runCli(['check', '--wire', '--client', 'sdk', '--target', 'http://127.0.0.1:9/mcp', '--runs', '2']);
    expect({ code: r.code, stdout: r.stdout, hung: r.hung }).toEqual({ code: 2, stdout: '', hung: false });
    expect(r.stderr).toBe('mcp-faultsim: --target http://127.0.0.1:9/mcp does not answer HTTP (is the server running?)\n');
  });
});

/** The groups a CLI served, once its server-everything answers HTTP (its port from its environment). */
async function serving(cli: number): Promise<{ groups: number[]; server: PsRow }> {
  const found = await waitFor(() => {
    const groups = groupsStartedBy(cli);
    const server = leftIn(groups).find((r) => r.args.includes('server-everything'));
    return server ? { groups, server } : undefined;
  });
  const port = /(?:^|\0)PORT=(\d+)/.exec(readFileSync(`/proc/${found.server.pid}/environ`, 'utf8'))![1];
  for (let i = 0; i < 300; i++) {
    const up = await fetch(`http://127.0.0.1:${port}/mcp`, { method: 'GET' }).then(
      (r) => (r.body?.cancel(), true),
      () => false,
    );
    if (up) break;
    await sleep(100);
  }
  await sleep(1000);
  return found;
}

describe('the served process group ends on every exit path', () => {
  // `sleep` in the background stands for whatever a served command leaves running beside its server:
  // it is in the same process group, and must end with it.
  const serve = `sleep 300 & exec ${EVERYTHING}`;
  const argv = ['check', '--wire', '--client', 'sdk', '--serve', serve, '--faults', 'http-502', '--runs', '100000', '--quiet'];

  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`${signal} to the CLI mid-check: it ends by that signal, and no process of the served group is left`, async () => {
      const cli = startCli(argv, 60_000);
      const { groups } = await serving(cli.child.pid!);
      expect(leftIn(groups).map((r) => r.args)).toEqual(expect.arrayContaining([expect.stringContaining('sleep 300')]));
      cli.child.kill(signal);
      const r = await cli.ended;
      expect(r.hung).toBe(false);
      expect(r.signal).toBe(signal);
      expect(leftIn(groups)).toEqual([]);
    }, 90_000);
  }

  it('a crash of the served server ends the check with outcome server-failed, exit 4, and its group is ended', async () => {
    const cli = startCli([...argv.slice(0, -1), '--json'], 60_000);
    const { groups, server } = await serving(cli.child.pid!);
    process.kill(server.pid, 'SIGKILL');
    const r = await cli.ended;
    expect(r.hung).toBe(false);
    expect(r.code, r.stderr).toBe(4);
    expect(JSON.parse(r.stdout)).toMatchObject({
      outcome: 'server-failed',
      why: expect.stringMatching(/^--serve server exited on its own \(signal SIGKILL\)/),
    });
    expect(leftIn(groups)).toEqual([]);
    expect(processTable().some((p) => p.pid === server.pid)).toBe(false);
  }, 90_000);
});
