// What a wire run puts on each side of the fault network: the model (with its policy knobs) or
// real code (the SDK in-process, or a server on loopback). A preset name stands where a knob list
// would: `--client sdk`, `--server sdk-sse`, `--server sdk-json` (the SDK v1 line), and the v2 line's
// `--client sdk2`, `--server sdk2-sse`, `--server sdk2-json`, each in a revision the v2 packages
// speak: `sdk2,protocol=2026-07-28` (the default is 2025-11-25; see SDK2_*_PROTOCOLS).
import {
  combination,
  DEFAULT_CLIENT,
  DEFAULT_SERVER,
  formatClient,
  formatServer,
  type ClientPolicy,
  type Combination,
  type ServerPolicy,
} from '../../models/policies.ts';
import { FAULTSIM_TOOLS, type ToolMap } from './protocol/tool-maps.ts';
import type { LoopbackEndpoint } from './process/loopback.ts';
import type { Watchdog } from './process/watchdog.ts';
import type { HarnessRevision } from './process/cmd-client.ts';
import type { ClientFactory } from './peers/sdk-client.ts';
import {
  SDK_SERVER_PRESETS,
  SDK2_CLIENT_PROTOCOLS,
  SDK2_SERVER_PRESETS,
  SDK2_SERVER_PROTOCOLS,
  type Sdk2ClientProtocol,
  type Sdk2ServerPreset,
  type Sdk2ServerProtocol,
  type SdkServerPreset,
} from './peers/presets.ts';
import { NO_ADDITIONS } from '../../models/additions.ts';

/** `sdk` is the official SDK's client; with `connect`, a user's own (the agent loop around it is the same). */
export type WireClientSpec =
  | { kind: 'model'; policy: ClientPolicy }
  | { kind: 'sdk'; connect?: ClientFactory; name?: string }
  | { kind: 'sdk2'; protocol: Sdk2ClientProtocol }
  /** A client in another process behind the JSON-lines protocol (cmd-client.ts), through the loopback proxy. */
  | {
      kind: 'cmd';
      command: string;
      watchdog?: Watchdog;
      revision?: HarnessRevision;
      agentLoop?: boolean;
      /** The request timeout the harness is told, real ms (cmd-client.ts's CMD_CLIENT_TIMEOUT_MS by
       *  default); null: none (the library's own default). */
      timeoutMs?: number | null;
      /** Real ms before the run's open calls end `never` (proxy-run.ts's RUN_LIMIT_MS by default). */
      runLimitMs?: number;
      /** End the run sooner (its open calls `never`) once a fault has acted, no exchange is in flight
       *  and nothing has moved for this many real ms: nothing can answer a call still open then. */
      quietEndMs?: number;
    };
export type WireServerSpec =
  | { kind: 'model'; policy: ServerPolicy }
  | { kind: 'sdk'; preset: SdkServerPreset }
  | { kind: 'sdk2'; preset: Sdk2ServerPreset; protocol: Sdk2ServerProtocol }
  | { kind: 'loopback'; endpoint: LoopbackEndpoint };

export interface WireSetup {
  client: WireClientSpec;
  server: WireServerSpec;
}

export const CLIENT_PRESETS = {
  sdk: 'official SDK v1 client (Client + StreamableHTTPClientTransport, falling back to SSEClientTransport)',
  sdk2: 'official SDK v2 client (@modelcontextprotocol/client 2.4; versionNegotiation by protocol=)',
} as const;
export { SDK_SERVER_PRESETS, SDK2_SERVER_PRESETS, SDK2_CLIENT_PROTOCOLS, SDK2_SERVER_PROTOCOLS };
export const DEFAULT_SDK2_PROTOCOL = '2025-11-25';

/** A preset given with a protocol it does not speak, or a knob presets do not take: one line for the user. */
export class WirePresetError extends Error {
  override name = 'WirePresetError';
}

/** `sdk2` or `sdk2,protocol=2026-07-28`: the preset and its `protocol=` (only the v2 presets take one).
 *  A text whose first item names no preset is a model knob list: null, unread. */
function splitPreset(text: string, presets: readonly string[]): { name: string; protocol: string | undefined } | null {
  const [name = '', ...rest] = text.split(',').map((x) => x.trim());
  if (!presets.includes(name)) return null;
  let protocol: string | undefined;
  for (const item of rest) {
    const m = /^protocol=(.*)$/.exec(item);
    if (!m) throw new WirePresetError(`preset '${name}' takes only protocol=…, not '${item}'`);
    if (protocol !== undefined) throw new WirePresetError(`preset '${name}': protocol is given twice`);
    protocol = m[1]!;
  }
  return { name, protocol };
}

function protocolOf<T extends string>(name: string, given: string | undefined, valid: readonly T[]): T {
  if (given === undefined) return DEFAULT_SDK2_PROTOCOL as T;
  if (!(valid as readonly string[]).includes(given))
    throw new WirePresetError(`preset '${name}' speaks protocol ${valid.join(', ')}, not '${given}'`);
  return given as T;
}

/** The client preset `text` names, or null when it names none (then it is a model knob list). */
export function clientPreset(text: string): WireClientSpec | null {
  const preset = splitPreset(text, Object.keys(CLIENT_PRESETS));
  if (!preset) return null;
  const { name, protocol } = preset;
  if (name === 'sdk2') return { kind: 'sdk2', protocol: protocolOf(name, protocol, SDK2_CLIENT_PROTOCOLS) };
  if (protocol !== undefined) throw new WirePresetError(`preset '${name}' (SDK v1) speaks 2025-11-25 only; protocol= is for sdk2`);
  return { kind: 'sdk' };
}

/** The in-process server preset `text` names, or null when it names none. */
export function serverPreset(text: string): WireServerSpec | null {
  const preset = splitPreset(text, [...Object.keys(SDK_SERVER_PRESETS), ...Object.keys(SDK2_SERVER_PRESETS)]);
  if (!preset) return null;
  const { name, protocol } = preset;
  if (name in SDK2_SERVER_PRESETS)
    return { kind: 'sdk2', preset: name as Sdk2ServerPreset, protocol: protocolOf(name, protocol, SDK2_SERVER_PROTOCOLS) };
  if (protocol !== undefined)
    throw new WirePresetError(`preset '${name}' (SDK v1) speaks 2025-11-25 only; protocol= is for sdk2-sse, sdk2-json`);
  return { kind: 'sdk', preset: name as SdkServerPreset };
}

/** How reports name each side: `model reinit=…` or the preset. */
export interface WireSides {
  client: string;
  server: string;
}

export function describeSides(s: WireSetup): WireSides {
  const client =
    s.client.kind === 'model'
      ? `model ${formatClient(s.client.policy)}`
      : s.client.kind === 'sdk2'
        ? `sdk2 protocol=${s.client.protocol}`
        : s.client.kind === 'cmd'
          ? `cmd ${s.client.command}`
          : (s.client.name ?? (s.client.connect ? 'your client' : 'sdk'));
  const server =
    s.server.kind === 'model'
      ? `model ${formatServer(s.server.policy)}`
      : s.server.kind === 'sdk'
        ? s.server.preset
        : s.server.kind === 'sdk2'
          ? `${s.server.preset} protocol=${s.server.protocol}`
          : s.server.endpoint.name;
  return { client, server };
}

/** The knobs of the sides that are the model; the defaults stand for the real sides (see `wire`).
 *  Guards are put in the built-ins' order (a module's guards, being no built-in, are dropped). */
export function modelCombination(s: WireSetup): Combination {
  return combination(
    {
      server: s.server.kind === 'model' ? s.server.policy : DEFAULT_SERVER,
      client: s.client.kind === 'model' ? s.client.policy : DEFAULT_CLIENT,
    },
    NO_ADDITIONS,
  );
}

/** The tools a run's calls use: the target's, or those of the model and the in-process SDK servers. */
export function toolsOf(s: WireSetup): ToolMap {
  return s.server.kind === 'loopback' ? s.server.endpoint.tools : FAULTSIM_TOOLS;
}
