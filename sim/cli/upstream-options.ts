// How `audit` and `check --wire` reach a deployed server, from the command line: `--header 'Name: value'` and
// `--header-env Name=ENVVAR` (repeatable), `--ca FILE`, `--allow-remote`. Resolved once, before any
// packet is sent. Header values are secrets as far as this tool knows: no message, reproduce line or
// report carries one — a reproduce line says `--header 'Name: <redacted>'` (give it again, or use
// --header-env) or repeats the `--header-env` as given, which names the variable, not its value.
import { readFileSync } from 'node:fs';
import type { Upstream } from '../wire/process/upstream.ts';
import { listOption, type OptionSpec, type Parsed } from './args.ts';
import { UsageError } from './errors.ts';
import { quote } from './wire-server.ts';

/** How a deployed server is reached: one definition for `audit` and `check --wire`. */
export const REACH_OPTIONS: Record<string, OptionSpec> = {
  'allow-remote': {
    value: false,
    help: 'allow a --target host that is not loopback (the fault proxy still sits in between)',
    needs: ['target'],
  },
  ca: {
    value: true,
    arg: 'FILE',
    help: "with an https:// --target: the PEM certificate of the CA that signed the server's (a private CA)",
    needs: ['target'],
  },
  header: {
    value: true,
    repeatable: true,
    arg: "'NAME: VALUE'",
    help: 'add this header to every request (repeatable)',
    needs: ['target', 'serve'],
  },
  'header-env': {
    value: true,
    repeatable: true,
    arg: 'NAME=ENVVAR',
    help: 'a header whose value is the environment variable ENVVAR (repeatable; for secrets)',
    needs: ['target', 'serve'],
  },
};

/** Headers the audit's client and faults own: a user's value would defeat a scenario (strip-accept…). */
const OWNED = [
  'accept',
  'content-type',
  'content-length',
  'transfer-encoding',
  'host',
  'mcp-session-id',
  'mcp-protocol-version',
  'mcp-method',
  'last-event-id',
];
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

export interface UpstreamOptions {
  upstream: Upstream;
  /** The flags as a reproduce line may carry them: names and variables, never values. */
  reproduce: string[];
  /** Every header value given, so that a caller can check an output for them. */
  secrets: string[];
}

function checkName(name: string, flag: string): string {
  if (!TOKEN.test(name)) throw new UsageError(`${flag}: '${name}' is not a header name`);
  const lower = name.toLowerCase();
  if (OWNED.includes(lower))
    throw new UsageError(`${flag}: ${name} is set by the audit's client (and its faults act on it); it cannot be given`);
  return lower;
}

export function upstreamOptions(args: Parsed, env: NodeJS.ProcessEnv = process.env): UpstreamOptions {
  const headers: Record<string, string> = {};
  const reproduce: string[] = [];
  const secrets: string[] = [];
  listOption(args, 'header').forEach((text, i) => {
    const colon = text.indexOf(':');
    // The value may be a secret: a malformed --header is named by its position, never echoed.
    if (colon <= 0) throw new UsageError(`--header #${i + 1} is not 'Name: value' (the text given is not shown)`);
    const name = checkName(text.slice(0, colon).trim(), `--header #${i + 1}`);
    const value = text.slice(colon + 1).trim();
    if (!value) throw new UsageError(`--header ${name}: the value is empty`);
    headers[name] = value;
    secrets.push(value);
    reproduce.push(`--header ${quote(`${text.slice(0, colon).trim()}: <redacted>`)}`);
  });
  for (const text of listOption(args, 'header-env')) {
    const m = /^([^=]+)=([A-Za-z_][A-Za-z0-9_]*)$/.exec(text);
    if (!m) throw new UsageError(`--header-env '${text}' must be Name=ENVVAR (a header name, then an environment variable's name)`);
    const name = checkName(m[1]!.trim(), '--header-env');
    const value = env[m[2]!];
    if (value === undefined || value === '')
      throw new UsageError(`--header-env ${m[1]}=${m[2]}: the environment variable ${m[2]} is not set`);
    headers[name] = value;
    secrets.push(value);
    reproduce.push(`--header-env ${quote(text)}`);
  }
  const caFile = typeof args.options.ca === 'string' ? args.options.ca : undefined;
  let ca: string | undefined;
  if (caFile !== undefined) {
    try {
      ca = readFileSync(caFile, 'utf8');
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code ?? (e instanceof Error ? e.message : String(e));
      throw new UsageError(`--ca ${caFile}: cannot read it (${code})`);
    }
    if (!ca.includes('-----BEGIN CERTIFICATE-----'))
      throw new UsageError(`--ca ${caFile}: not a PEM certificate (no BEGIN CERTIFICATE line)`);
    reproduce.push(`--ca ${quote(caFile)}`);
  }
  const remote = args.options['allow-remote'] === true;
  if (remote) reproduce.push('--allow-remote');
  return { upstream: { headers, ...(ca !== undefined ? { ca } : {}), remote }, reproduce, secrets };
}
