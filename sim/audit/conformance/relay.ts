// The loopback relay the conformance suite reaches the audited server through: the suite can send no
// header of its own choosing (conformance#453), so the relay adds the audit's `--header`/`--header-env`
// values to every request on the way to the server, and the suite never sees them. Not the fault
// proxy (wire/net/http-proxy.ts): that one forwards through fetch, which sets Host itself, and the
// suite's DNS-rebinding check depends on a foreign Host and Origin reaching the server as sent. So
// this relay is plain node:http: bytes and headers as sent, except that the relay's own address in
// Host and Origin becomes the server's (the suite's "valid host" control must stay valid). It listens
// on 127.0.0.1 only; where it forwards is the audit's endpoint, already checked (loopback unless
// --allow-remote), over https with the audit's --ca where the server is https.
import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { Upstream } from '../../wire/process/upstream.ts';

export interface Relay {
  /** The URL to give the suite: `http://localhost:PORT/<the server's path>` (the suite's DNS-rebinding scenario wants a localhost URL). */
  url: string;
  /** Requests relayed so far, and those the server never answered (the relay's own 502), with the latest error (a run none of whose requests reached the server names one of its own). */
  readonly carried: number;
  readonly unanswered: number;
  readonly lastError: string | null;
  close(): Promise<void>;
}

/** The request's headers as the server should see them: the relay's own address swapped for the server's, the credentials added. */
export function relayedHeaders(
  h: IncomingHttpHeaders,
  relayHosts: readonly string[],
  target: URL,
  upstream: Upstream,
): IncomingHttpHeaders {
  const out: IncomingHttpHeaders = { ...h };
  if (out.host && relayHosts.includes(out.host)) out.host = target.host;
  const origin = out.origin;
  if (typeof origin === 'string' && relayHosts.some((host) => origin === `http://${host}`)) out.origin = target.origin;
  for (const [name, value] of Object.entries(upstream.headers)) out[name] = value;
  return out;
}

/** Start a relay in front of `serverUrl` on a free loopback port. */
export async function startRelay(serverUrl: string, upstream: Upstream): Promise<Relay> {
  const target = new URL(serverUrl);
  const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
  let carried = 0;
  let unanswered = 0;
  let lastError: string | null = null;
  let hosts: string[] = [];
  const server: Server = createServer((req, res) => {
    carried++;
    const out = send(
      {
        protocol: target.protocol,
        hostname: target.hostname.replace(/^\[|\]$/g, ''),
        port: target.port,
        method: req.method,
        path: req.url,
        headers: relayedHeaders(req.headers, hosts, target, upstream),
        ...(upstream.ca !== undefined ? { ca: upstream.ca } : {}),
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.statusMessage, answer.headers);
        answer.pipe(res);
      },
    );
    // The server unreachable or gone mid-answer: the suite sees a 502 the relay says is its own.
    out.on('error', (e) => {
      unanswered++;
      lastError = e.message;
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' }).end('audit relay: the server did not answer');
      else res.destroy();
    });
    res.on('close', () => out.destroy());
    req.pipe(out);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const port = (server.address() as AddressInfo).port;
  hosts = [`localhost:${port}`, `127.0.0.1:${port}`];
  return {
    url: `http://localhost:${port}${target.pathname}`,
    get carried() {
      return carried;
    },
    get unanswered() {
      return unanswered;
    },
    get lastError() {
      return lastError;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
