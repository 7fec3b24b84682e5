// What a client does after a failed call: one strategy per `client.reconnect` value. A strategy
// says whether to replay `initialize` on the same session or open a new one, and which handshake
// it sends (built from the possibly reset config, or the cached first one).
import { paramsFromConfig, type ClientConfig, type InitParams } from './client-context.ts';
import type { ReconnectPolicy } from './policies.ts';
import { activeExtensions, type ModelExtensions } from './registry.ts';

/** What a strategy sees of the client when a call has failed. */
export interface ReconnectView {
  session: { id: string; gone: boolean; dead: string | null } | null;
}

/** A `client.reconnect` value: the built-ins below, or one a policy module registers. */
export interface ReconnectStrategyDef {
  name: string;
  /** One line for `list` and the reports. */
  describe?: string;
  /** After a failed call, and on a call to a dead session: replay `initialize` on the same session
   *  (a dead session then fails the call), or open a new session. A 404 always opens a new one. */
  afterFailure: (view: ReconnectView) => 'replay' | 'new-session';
  /** The `initialize` the client sends, on a first connect, a replay and a new session alike. */
  handshake: (view: { config: ClientConfig; cached: InitParams | null }) => InitParams;
}

const fromConfig = ({ config }: { config: ClientConfig }) => paramsFromConfig(config);

const BUILTIN: ReadonlyMap<string, ReconnectStrategyDef> = new Map(
  (
    [
      { name: 'replay-mutable', afterFailure: () => 'replay', handshake: fromConfig },
      { name: 'replay-cached', afterFailure: () => 'replay', handshake: ({ config, cached }) => cached ?? paramsFromConfig(config) },
      { name: 'new-session', afterFailure: () => 'new-session', handshake: fromConfig },
    ] satisfies ReconnectStrategyDef[]
  ).map((d) => [d.name, d]),
);

/** The handshake the client sends (`handshake` of its strategy), asking for `client.reconnect` only
 *  where it decides: before a handshake is cached, every built-in builds it from the config (a
 *  module's strategy is asked). Same result; search/random/read-set.ts reuses runs that did not read it. */
export function handshakeParams(
  reconnect: () => ReconnectPolicy,
  view: { config: ClientConfig; cached: InitParams | null },
  ext: ModelExtensions = activeExtensions(),
): InitParams {
  if (view.cached === null && ext.reconnect.names().length === 0) return paramsFromConfig(view.config);
  return reconnectStrategy(reconnect(), ext).handshake(view);
}

export function reconnectStrategy(name: ReconnectPolicy, ext: ModelExtensions = activeExtensions()): ReconnectStrategyDef {
  const def = BUILTIN.get(name) ?? ext.reconnect.get(name);
  if (!def) throw new Error(`unknown client.reconnect strategy '${name}'`);
  return def;
}
