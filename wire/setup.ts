// What a wire run puts on each side of the fault network: the model (with its policy knobs) or
// real code (the SDK in-process, or a server on loopback). A preset name stands where a knob list
// would: `--client sdk`, `--server sdk-sse`, `--server sdk-json`.
import { combination, DEFAULT_CLIENT, DEFAULT_SERVER, formatClient, formatServer, type ClientPolicy, type Combination, type ServerPolicy } from '../models/policies.ts';
import { FAULTSIM_TOOLS, type ToolMap } from './json-rpc.ts';
import type { LoopbackEndpoint } from './loopback.ts';
import type { ClientFactory } from './sdk-client.ts';
import { SDK_SERVER_PRESETS, type SdkServerPreset } from './sdk-server.ts';

/** `sdk` is the official SDK's client; with `connect`, a user's own (the agent loop around it is the same). */
export type WireClientSpec = { kind: 'model'; policy: ClientPolicy } | { kind: 'sdk'; connect?: ClientFactory; name?: string };
export type WireServerSpec = { kind: 'model'; policy: ServerPolicy } | { kind: 'sdk'; preset: SdkServerPreset } | { kind: 'loopback'; endpoint: LoopbackEndpoint };

export interface WireSetup {
  client: WireClientSpec;
  server: WireServerSpec;
}

export const CLIENT_PRESETS = { sdk: 'official SDK client (Client + StreamableHTTPClientTransport, falling back to SSEClientTransport)' } as const;
export { SDK_SERVER_PRESETS };

/** How reports name each side: `model reinit=…` or the preset. */
export interface WireSides {
  client: string;
  server: string;
}

export function describeSides(s: WireSetup): WireSides {
  const real = s.client.kind === 'sdk' ? (s.client.name ?? (s.client.connect ? 'your client' : 'sdk')) : '';
  const client = s.client.kind === 'model' ? `model ${formatClient(s.client.policy)}` : real;
  const server = s.server.kind === 'model' ? `model ${formatServer(s.server.policy)}` : s.server.kind === 'sdk' ? s.server.preset : s.server.endpoint.name;
  return { client, server };
}

/** The knobs of the sides that are the model; the defaults stand for the real sides (see `wire`). */
export function modelCombination(s: WireSetup): Combination {
  return combination({
    server: s.server.kind === 'model' ? s.server.policy : DEFAULT_SERVER,
    client: s.client.kind === 'model' ? s.client.policy : DEFAULT_CLIENT,
  });
}

/** The tools a run's calls use: the target's, or those of the model and the in-process SDK servers. */
export function toolsOf(s: WireSetup): ToolMap {
  return s.server.kind === 'loopback' ? s.server.endpoint.tools : FAULTSIM_TOOLS;
}
