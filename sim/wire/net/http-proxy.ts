// A real HTTP fault proxy on a loopback port: a thin node:http front for the fault network
// (fault-network.ts), so a client the tool does not run in-process — a harness in another language
// (cmd-client.ts), the Inspector, an agent — meets the same plans, rules and history as the msw
// network's clients. Each HTTP request becomes one `Request` carried through `FaultNetwork.carry`;
// the `Response` that comes back (the server's, the load balancer's, or a rule's) is written back
// as it streams. The proxy listens on 127.0.0.1 only and connects nowhere itself: the server side
// is the network's adapter (the model or an SDK server in-process, or a loopback server through
// loopback-fetch.ts, which never leaves loopback and never follows a redirect — a 3xx goes back to
// the client as it is). Runs on the wall clock (wall-time.ts).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Carrier {
  carry(request: Request): Promise<Response>;
}

/** Headers node:http manages itself, or that describe the framing of a body the proxy re-frames. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'upgrade', 'proxy-connection']);

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

function toRequest(req: IncomingMessage, body: Buffer, origin: string): Request {
  const headers = new Headers();
  for (const [k, v] of Object.entries(req.headers)) {
    if (v === undefined || k === 'host' || k === 'connection' || k === 'content-length') continue;
    headers.set(k, Array.isArray(v) ? v.join(', ') : v);
  }
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD' && body.length > 0;
  return new Request(new URL(req.url ?? '/', origin), { method: req.method, headers, body: hasBody ? body : undefined });
}

async function writeResponse(res: ServerResponse, response: Response): Promise<void> {
  const headers: Record<string, string> = {};
  response.headers.forEach((v, k) => {
    if (!HOP_BY_HOP.has(k)) headers[k] = v;
  });
  res.writeHead(response.status, response.statusText || undefined, headers);
  if (!response.body) return void res.end();
  res.flushHeaders();
  const reader = response.body.getReader();
  // A client that goes away ends the stream toward the server too.
  res.once('close', () => void reader.cancel().catch(() => {}));
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      res.write(value);
    }
  } catch {
    /* the body ended in an error (a cut stream, a closed server): the client sees the stream end */
  }
  res.end();
}

/** Exchanges the proxy is carrying: a POST (or DELETE) whose response has not ended. A GET stream is
 *  a listener, not counted: nothing answers a request on it unless the client asks again. */
export class InFlight {
  count = 0;
}

export class HttpFaultProxy {
  private readonly sockets = new Set<import('node:net').Socket>();

  private constructor(
    private readonly server: Server,
    /** `http://127.0.0.1:PORT`: append the MCP path. */
    readonly origin: string,
    readonly inFlight: InFlight,
  ) {
    server.on('connection', (s) => {
      this.sockets.add(s);
      s.once('close', () => this.sockets.delete(s));
    });
  }

  /** Listen on 127.0.0.1:`port` (0: any free port) and carry every request through `network`. */
  static async start(network: Carrier, port = 0): Promise<HttpFaultProxy> {
    let origin = '';
    const inFlight = new InFlight();
    const server = createServer((req, res) => {
      if (req.method !== 'GET') {
        inFlight.count++;
        res.once('close', () => inFlight.count--);
      }
      void (async () => {
        try {
          const response = await network.carry(toRequest(req, await readBody(req), origin));
          await writeResponse(res, response);
        } catch (e) {
          if (res.headersSent) return void res.destroy();
          res.writeHead(502, { 'content-type': 'text/plain' });
          res.end(`mcp-faultsim proxy: ${e instanceof Error ? e.message : String(e)}\n`);
        }
      })();
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve());
    });
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return new HttpFaultProxy(server, origin, inFlight);
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  /** Stop listening and end every open connection (a held-open stream included). */
  async close(): Promise<void> {
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    for (const s of this.sockets) s.destroy();
    await closed;
  }
}
