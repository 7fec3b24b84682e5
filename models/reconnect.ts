// What a client does after a failed call: one strategy per `client.reconnect` value. A strategy
// says whether to replay `initialize` on the same session or open a new one, and which handshake
// it sends (built from the possibly reset config, or the cached first one).
import { paramsFromConfig, type ClientConfig } from './client-context.ts';
import type { ReconnectStrategyDef } from './policy-defs.ts';
import { CLIENT_KNOBS } from './knobs.ts';
import type { ReconnectPolicy } from './policies.ts';
import type { PolicyAdditions } from './additions.ts';

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

/**
 * The client as the 2025-11-25 transport text describes it, for the audit's spec-literal run: it
 * starts a new session only where the spec says so (after HTTP 404 on a request that carried its
 * session id) and otherwise keeps its session, sending a failed call again on it. Not a knob value
 * of the matrices (compare/explore never meet it): the audit registers it as an addition.
 */
export const KEEP_SESSION: ReconnectStrategyDef = {
  name: 'keep-session',
  describe: 'keep the session after a failure; only HTTP 404 opens a new one (the 2025-11-25 text, literally)',
  afterFailure: () => 'keep',
  handshake: fromConfig,
};

/** Every value `client.reconnect` can take under `additions`; null where a policy module adds some. */
export function reconnectValues(additions: PolicyAdditions): readonly ReconnectPolicy[] | null {
  return additions.reconnect.names().length === 0 ? CLIENT_KNOBS.reconnect.values : null;
}

export function reconnectStrategy(name: ReconnectPolicy, additions: PolicyAdditions): ReconnectStrategyDef {
  const def = BUILTIN.get(name) ?? additions.reconnect.get(name);
  if (!def) throw new Error(`unknown client.reconnect strategy '${name}'`);
  return def;
}
