// How the audit's fault proxy reaches the real server behind it: the URL it may go to (loopback
// unless the user said `--allow-remote`; http:// or https://), the headers every forwarded request
// carries (`--header`, `--header-env`: credentials, never written to a history, since they are added
// after the network has recorded the request), and the CA an https:// server is verified with
// (`--ca`). The CLI resolves all of it once, before any packet is sent.
import { LoopbackError } from './served-process.ts';

export interface Upstream {
  /** Added to every request forwarded to the server, over what the client sent (lower-case names). */
  headers: Readonly<Record<string, string>>;
  /** PEM text of the CA that verifies an https:// server; absent: the system's CAs. */
  ca?: string;
  /** A host off loopback is allowed (`--allow-remote`). */
  remote: boolean;
}

export const LOCAL_UPSTREAM: Upstream = { headers: {}, remote: false };

const LOOPBACK = /^(127\.\d{1,3}\.\d{1,3}\.\d{1,3}|localhost|\[::1\])$/;

export const isLoopbackHost = (hostname: string): boolean => LOOPBACK.test(hostname);

/** `--target`'s URL, checked before anything is sent: http(s), and on loopback unless `allowRemote`. */
export function checkTargetUrl(text: string, allowRemote = false): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new LoopbackError(`--target '${text}' is not a URL (use http://127.0.0.1:PORT/mcp or https://HOST/mcp)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new LoopbackError(`--target '${text}' must be an http:// or https:// URL`);
  if (url.username || url.password)
    throw new LoopbackError(`--target '${url.host}…' carries credentials in the URL: give them with --header-env instead`);
  if (!isLoopbackHost(url.hostname) && !allowRemote)
    throw new LoopbackError(
      `--target ${url.origin} is not a loopback address (127.0.0.0/8, localhost or [::1]), and nothing was sent: \`audit --allow-remote\` audits a server on another host`,
    );
  return url;
}

/** A 3xx answer's Location, as one line for the user: the audit never follows a redirect. */
export function redirectError(url: string, status: number, location: string | null): LoopbackError {
  const from = new URL(url);
  let to: URL | null = null;
  try {
    to = location ? new URL(location, from) : null;
  } catch {
    to = null;
  }
  const where = to ? (to.origin !== from.origin ? `to another origin, ${to.origin}` : `to ${to.pathname}`) : 'without a usable Location';
  return new LoopbackError(
    `--target ${url} answered HTTP ${status}, a redirect ${where}: the audit follows no redirect (its faults act between this client and that server); aim --target at the URL that answers`,
  );
}
