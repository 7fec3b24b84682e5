// Bad input to the audit of a deployed server: each is one line on stderr and exit 2. Those checked
// before anything starts run with no server; the ones a server's answer decides (an unknown tool,
// arguments its schema refuses, a redirect to another host) run against servers on 127.0.0.1. The
// host off loopback is never contacted: the check comes before any lookup or packet.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { itRejects, run } from './run.ts';
import { setEnv } from '../../fixtures/env.ts';

const ORDERS = 'node test/fixtures/servers/orders-server.mjs --port {port}';
const TOKEN = 'tok-input-5b2d';

describe('audit: bad input before anything starts', () => {
  itRejects([
    [
      '--args not JSON',
      ['audit', '--serve', ORDERS, '--call', 'search_orders', '--args', '{customer:'],
      /^mcp-faultsim: --args for --call search_orders is not JSON: /,
    ],
    [
      '--args not an object',
      ['audit', '--serve', ORDERS, '--call', 'search_orders', '--args', '[1]'],
      /--args for --call search_orders must be a JSON object/,
    ],
    ['--args before any --call', ['audit', '--serve', ORDERS, '--args', '{}'], /--args must follow the --call it is for/],
    ['--call with --tools', ['audit', '--serve', ORDERS, '--call', 'x', '--tools', 'everything'], /give --tools or --call, not both/],
    [
      'an unreadable --ca',
      ['audit', '--target', 'https://127.0.0.1:9/mcp', '--ca', '/nonexistent/ca.pem'],
      /^mcp-faultsim: --ca \/nonexistent\/ca.pem: cannot read it \(ENOENT\)/,
    ],
    [
      'a --ca that is not PEM',
      ['audit', '--target', 'https://127.0.0.1:9/mcp', '--ca', 'package.json'],
      /--ca package.json: not a PEM certificate/,
    ],
    [
      '--header-env naming a variable not set',
      ['audit', '--serve', ORDERS, '--header-env', 'Authorization=FAULTSIM_SURELY_UNSET_VAR'],
      /the environment variable FAULTSIM_SURELY_UNSET_VAR is not set/,
    ],
    [
      '--header without a colon, its text not echoed',
      ['audit', '--serve', ORDERS, '--header', 'Bearer sekrit-value'],
      /^mcp-faultsim: --header #1 is not 'Name: value' \(the text given is not shown\)\n$/,
    ],
    [
      '--header on a header the audit owns',
      ['audit', '--serve', ORDERS, '--header', 'Accept: text/html'],
      /Accept is set by the audit's client/,
    ],
    [
      'a host off loopback without --allow-remote',
      ['audit', '--target', 'https://mcp.example.invalid/mcp'],
      /^mcp-faultsim: --target https:\/\/mcp.example.invalid is not a loopback address .*nothing was sent: `audit --allow-remote`/,
    ],
    ['--allow-remote without --target', ['audit', '--serve', ORDERS, '--allow-remote'], /--allow-remote needs --target/],
    [
      'credentials in the URL',
      ['audit', '--target', 'http://user:pw@127.0.0.1:9/mcp'],
      /carries credentials in the URL: give them with --header-env/,
    ],
  ]);

  it('--header text never reaches stderr, even malformed', async () => {
    const r = await run('audit', '--serve', ORDERS, '--header', 'Bearer sekrit-value');
    expect(r.stderr).not.toContain('sekrit');
  });
});

describe("audit: bad input a server's answer decides", () => {
  let redirecting: Server;
  let restoreEnv: () => void;
  beforeAll(async () => {
    restoreEnv = setEnv({ ORDERS_TOKEN: TOKEN, REACH_TEST_AUTH: `Bearer ${TOKEN}` });
    // 127.0.0.2 is loopback too, and another host: nothing listens there, and nothing is sent there.
    redirecting = createServer((_req, res) => res.writeHead(307, { location: 'http://127.0.0.2:9/mcp' }).end());
    await new Promise<void>((r) => redirecting.listen(0, '127.0.0.1', r));
  });
  afterAll(async () => {
    restoreEnv();
    await new Promise((r) => redirecting.close(r));
  });
  const auth = ['--header-env', 'Authorization=REACH_TEST_AUTH'];

  it('a redirect to another host: one line, exit 2', async () => {
    const url = `http://127.0.0.1:${(redirecting.address() as AddressInfo).port}/mcp`;
    const r = await run('audit', '--target', url);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/answered HTTP 307, a redirect to another origin, http:\/\/127\.0\.0\.2:9: the audit follows no redirect/);
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
  });

  it('an unknown tool: one line listing the tools the server has', async () => {
    const r = await run('audit', '--serve', ORDERS, ...auth, '--call', 'cancel_order');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /^mcp-faultsim: --call cancel_order: the server has no such tool \(its tools: search_orders, place_order, place_warehouse_order\)\n$/,
    );
  }, 60_000);

  it('--slow-call of a tool the server lacks, or given twice: one line, exit 2', async () => {
    const r = await run(
      'audit',
      '--serve',
      ORDERS,
      ...auth,
      '--call',
      'search_orders',
      '--args',
      '{"customer":"ada"}',
      '--slow-call',
      'bulk',
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /^mcp-faultsim: --slow-call bulk: the server has no such tool \(its tools: search_orders, place_order, place_warehouse_order\)\n$/,
    );
    const twice = await run('audit', '--serve', ORDERS, '--slow-call', 'a', '--slow-call', 'b');
    expect(twice.code).toBe(2);
    expect(twice.stderr).toBe('mcp-faultsim: --slow-call is given twice (the probe calls one)\n');
  }, 60_000);

  it('a required argument missing: its input schema quoted', async () => {
    const r = await run('audit', '--serve', ORDERS, ...auth, '--call', 'place_order', '--args', '{"customer":"ada"}');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /^mcp-faultsim: tool 'place_order' needs argument item; its input schema: \{.*"required":\["customer","item"\].*\}; give --call place_order --args/,
    );
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
  }, 60_000);

  it('an argument of the wrong type: what the schema says, and the schema', async () => {
    const r = await run('audit', '--serve', ORDERS, ...auth, '--call', 'search_orders', '--args', '{"customer":5}');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /^mcp-faultsim: --args for tool 'search_orders' do not fit its input schema \(.*string.*\); its input schema: /,
    );
  }, 60_000);

  it('no --call, and no tool annotated read-only that needs no argument: the schema of the one that is', async () => {
    const r = await run('audit', '--serve', ORDERS, ...auth);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^mcp-faultsim: tool 'search_orders' needs argument customer \(no --args given\); its input schema: /);
  }, 60_000);
});
