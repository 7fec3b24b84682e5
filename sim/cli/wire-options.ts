// `check --wire`'s options, its help and its presets, apart from the wire check itself
// (cli/wire-check.ts): `check` parses and explains them without loading msw and the SDKs, which it
// loads only for a --wire run.
import {
  CLIENT_PRESETS,
  clientPreset,
  DEFAULT_SDK2_PROTOCOL,
  SDK_SERVER_PRESETS,
  SDK2_CLIENT_PROTOCOLS,
  SDK2_SERVER_PRESETS,
  SDK2_SERVER_PROTOCOLS,
  serverPreset,
  WirePresetError,
  type WireClientSpec,
  type WireServerSpec,
} from '../wire/setup.ts';
import type { OptionSpec } from './args.ts';
import { REACH_OPTIONS } from './upstream-options.ts';
import { UsageError } from './errors.ts';
import { toolOptions } from './tool-options.ts';
import { REAL_SERVER_OPTIONS, WATCHDOG_OPTION } from './wire-server.ts';

/** The revisions a real server's tools are listed in (check --wire) or an audit's loopback server speaks (`dual`: both). */
export const REVISIONS = ['2025-11-25', '2026-07-28', 'dual'] as const;

const { tools, call, args } = toolOptions('the everything preset');

/** Every option but `--wire` itself is of the wire tier: given without --wire, it is refused before its other rules. */
const WIRE_TIER: Record<string, OptionSpec> = {
  ...REAL_SERVER_OPTIONS,
  watchdog: WATCHDOG_OPTION,
  'client-cmd': {
    value: true,
    arg: 'CMD',
    help: 'the client is this command (any language), driven over JSON lines (examples/clients/README.md) through a loopback fault proxy, on the wall clock',
    conflicts: ['client'],
    nonEmpty: 'a command',
  },
  tools: tools!,
  ...REACH_OPTIONS,
  call: call!,
  args: args!,
  revision: {
    value: true,
    arg: 'R',
    help: `with --call: the revision the server's tools are listed in, ${REVISIONS.join(', ')} (default: the client's)`,
    needs: ['target', 'serve'],
  },
};

export const WIRE_OPTIONS: Record<string, OptionSpec> = {
  wire: {
    value: false,
    help: 'run on real HTTP through msw (the wire tier); --client/--server also take presets: sdk, sdk-sse, sdk-json, sdk2, sdk2-sse, sdk2-json',
  },
  ...Object.fromEntries(Object.entries(WIRE_TIER).map(([name, spec]) => [name, { ...spec, mode: 'wire' }])),
};

export const WIRE_HELP = [
  '',
  'wire tier (--wire): the same plans on real HTTP through msw, on virtual time (no test waits on a timeout).',
  `  --client sdk       ${CLIENT_PRESETS.sdk}`,
  ...Object.entries(SDK_SERVER_PRESETS).map(([name, p]) => `  --server ${name.padEnd(9)} ${p.describe}`),
  `  --client sdk2      ${CLIENT_PRESETS.sdk2}`,
  ...Object.entries(SDK2_SERVER_PRESETS).map(([name, p]) => `  --server ${name.padEnd(9)} ${p.describe}`),
  `  The v1 presets speak 2025-11-25 only. The v2 presets take a revision: sdk2,protocol=${SDK2_CLIENT_PROTOCOLS.join('|')}`,
  `  (negotiate: server/discover, falling back to initialize) and sdk2-sse,protocol=${SDK2_SERVER_PROTOCOLS.join('|')}`,
  `  (dual: a request with the 2026-07-28 _meta envelope is served sessionless, initialize opens a session); default ${DEFAULT_SDK2_PROTOCOL}.`,
  '  Either side may instead be the model (a knob list). Against --target, session-expire and server-restart',
  '  are skipped (the report says so); against --serve, session-expire is.',
  '  A real server runs on the wall clock: each run against it has a watchdog (--watchdog), the only wall clock of',
  '  a wire run. A run past it, or a --serve server that exits on its own or does not come back after a restart,',
  '  ends the check with that outcome (watchdog, server-failed) and exit status 4, never a report of success.',
  '  Every process --serve started is stopped on every exit (normal, error, SIGINT, SIGTERM, SIGHUP).',
].join('\n');

export function isWirePreset(side: 'client' | 'server', text: string | undefined): boolean {
  return text !== undefined && presetOf(side, text) !== null;
}

export function presetOf(side: 'client' | 'server', text: string): WireClientSpec | WireServerSpec | null {
  try {
    return side === 'client' ? clientPreset(text) : serverPreset(text);
  } catch (e) {
    if (e instanceof WirePresetError) throw new UsageError(e.message);
    throw e;
  }
}
