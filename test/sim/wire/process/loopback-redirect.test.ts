// Every request of the wire tier stays on loopback and goes only where the user pointed it: a real
// server answering 307 to another address does not make the tool follow: the worker hands the 307
// back, and `--target` at such a server is refused before any run.
// Both servers are plain node:http servers on 127.0.0.1; the second counts what reaches it.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeLoopback, loopbackFetch } from '../../../../sim/wire/process/loopback-fetch.ts';
import { targetEndpoint } from '../../../../sim/wire/process/loopback.ts';

let redirecting: Server;
let elsewhere: Server;
let reachedElsewhere: string[] = [];
let reachedRedirecting = 0;
const urlOf = (s: Server) => `http://127.0.0.1:${(s.address() as AddressInfo).port}/mcp`;
const listen = (s: Server) => new Promise<void>((r) => s.listen(0, '127.0.0.1', r));

beforeAll(async () => {
  elsewhere = createServer((req, res) => {
    reachedElsewhere.push(`${req.method} ${req.url}`);
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
  await listen(elsewhere);
  redirecting = createServer((_req, res) => {
    reachedRedirecting++;
    res.writeHead(307, { location: urlOf(elsewhere) }).end();
  });
  await listen(redirecting);
});
afterAll(async () => {
  await closeLoopback();
  await Promise.all([redirecting, elsewhere].map((s) => new Promise((r) => s.close(r))));
});

describe('a loopback server that redirects', () => {
  it('the worker hands the 307 back as it is (redirect: manual) and never fetches the Location', async () => {
    reachedElsewhere = [];
    const res = await loopbackFetch(
      null,
      urlOf(redirecting),
      { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' },
      false,
    );
    expect(res.status).toBe(307);
    expect(res.headers.get('location')).toBe(urlOf(elsewhere));
    await res.body?.cancel();
    expect(reachedElsewhere).toEqual([]);
  });

  it('--target at it is refused before any run, in one line naming the redirect; the second server receives nothing', async () => {
    reachedElsewhere = [];
    await expect(targetEndpoint(urlOf(redirecting))).rejects.toThrow(
      /^--target http:\/\/127\.0\.0\.1:\d+\/mcp answered HTTP 307, a redirect to another origin, http:\/\/127\.0\.0\.1:\d+: the audit follows no redirect/,
    );
    expect(reachedElsewhere).toEqual([]);
  });

  it('a URL off loopback is refused by the worker itself, whoever asks', async () => {
    await expect(loopbackFetch(null, 'http://10.0.0.1:9/mcp', { method: 'GET', headers: {} }, false)).rejects.toThrow(
      /refused: http:\/\/10\.0\.0\.1:9\/mcp is not an http\(s\):\/\/ URL on loopback/,
    );
  });
});
