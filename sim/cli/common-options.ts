// Options several commands share: the fault alphabet, the property, policy modules, shards, time
// limits, and stopping on SIGINT.
import { expandFault, faultVocabulary, type FaultName } from '../../models/faults.ts';
import { draftRegistry, EMPTY_REGISTRY, registryProperties, type Registry } from '../plugins/loaded.ts';
import { propertyByName } from '../../properties/properties.ts';
import { stringOption, type OptionSpec, type Parsed } from './args.ts';
import { UsageError } from './errors.ts';

export function parseFaults(text: string | undefined, registry: Registry = EMPTY_REGISTRY): FaultName[] {
  if (text === undefined) return faultVocabulary(registry.additions);
  const out: FaultName[] = [];
  for (const item of text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const expanded = expandFault(item, registry.additions);
    if (typeof expanded === 'string') throw new UsageError(expanded);
    for (const f of expanded) if (!out.includes(f)) out.push(f);
  }
  if (out.length === 0) throw new UsageError('--faults names no fault');
  return out;
}

export function parseProperty(name: string | undefined, registry: Registry = EMPTY_REGISTRY) {
  if (name === undefined) return registryProperties(registry);
  const p = propertyByName(name, registry.properties);
  if (!p)
    throw new UsageError(
      `unknown property '${name}' (valid: ${registryProperties(registry)
        .map((q) => q.name)
        .join(', ')})`,
    );
  return [p];
}

export const POLICIES_OPTION: OptionSpec = {
  value: true,
  arg: 'FILE,…',
  help: 'load policy modules (knobs, server re-init policies, reconnect strategies, guards, faults, properties): docs/library.md',
};

/** Load `--policies` into a registry of this command's own; a module that cannot be used is bad input. */
export async function policiesOption(parsed: Parsed): Promise<Registry> {
  const raw = stringOption(parsed, 'policies');
  const paths =
    raw === undefined
      ? []
      : raw
          .split(',')
          .map((p) => p.trim())
          .filter(Boolean);
  if (paths.length === 0) return draftRegistry();
  // Loaded only for modules to load: its schemas bring zod, some 95 files and 60 ms of every start.
  const { loadPolicies, PolicyLoadError } = await import('../plugins/policy-module.ts');
  try {
    return await loadPolicies(paths);
  } catch (e) {
    if (e instanceof PolicyLoadError) throw new UsageError(e.message);
    throw e;
  }
}

export function shardOption(parsed: Parsed): { index: number; count: number } | undefined {
  const raw = stringOption(parsed, 'shard');
  if (raw === undefined) return undefined;
  const m = /^([0-9]+)\/([0-9]+)$/.exec(raw);
  const index = Number(m?.[1]);
  const count = Number(m?.[2]);
  if (!m || count < 1 || index < 1 || index > count) throw new UsageError(`--shard must be i/n with 1 <= i <= n (e.g. 2/4), not '${raw}'`);
  return { index, count };
}

export function secondsOption(parsed: Parsed, name: string): number | undefined {
  const raw = stringOption(parsed, name);
  if (raw === undefined) return undefined;
  if (!/^[0-9]+(\.[0-9]+)?$/.test(raw) || Number(raw) <= 0)
    throw new UsageError(`--${name} must be a positive number of seconds, not '${raw}'`);
  return Number(raw);
}

/** Why a long run stopped early, if it did: SIGINT (a second one exits at once) or the time limit. */
export interface Stopper {
  reason(): 'sigint' | 'time-limit' | null;
  dispose(): void;
}

export function stopper(timeLimitS: number | undefined): Stopper {
  const started = Date.now();
  let interrupted = false;
  const onSigint = () => {
    if (interrupted) process.exit(130);
    interrupted = true;
    process.stderr.write('\nmcp-faultsim: interrupted; writing what finished (Ctrl-C again to quit at once)\n');
  };
  process.on('SIGINT', onSigint);
  return {
    reason: () => (interrupted ? 'sigint' : timeLimitS !== undefined && Date.now() - started >= timeLimitS * 1000 ? 'time-limit' : null),
    dispose: () => process.off('SIGINT', onSigint),
  };
}
