// The named combinations the two records discuss: each seed's vulnerable cell, each of its "does
// not apply" conditions (the rest of the combination kept vulnerable), and the beyond-the-records
// cells. The tests pin them; `compare` runs them as its default matrix. The shape of a cell a policy
// module adds is here too, below the plugins that make such cells and the matrix that runs them.
import type { FaultName } from '../../models/faults.ts';
import { combination, type Combination } from '../../models/policies.ts';
import { NO_ADDITIONS } from '../../models/additions.ts';

export interface Cell {
  name: string;
  seed: '000' | '003';
  role: 'vulnerable' | 'does-not-apply' | 'beyond';
  combination: Combination;
  /** The seed's own fault alphabet, under which the record's claim is checked. */
  faults: readonly FaultName[];
  /** The property the record is about. */
  property: 'no-silent-empty' | 'no-silent-hang';
  /** Every tools/call asks for progress (record 003's call). */
  progressCalls: boolean;
}

export const ALPHABET_000: readonly FaultName[] = ['http-502', 'config-reset'];
export const ALPHABET_003: readonly FaultName[] = ['strip-header:transfer-encoding'];
export const ALPHABET_003_WITH_502: readonly FaultName[] = ['strip-header:transfer-encoding', 'http-502'];

// The records' cells are built-in combinations: their guards are the built-ins'.
export const VULNERABLE_000 = combination(
  {
    server: { reinit: 'honor-last', streaming: 'negotiated' },
    client: { reconnect: 'replay-mutable', accept: 'always', parser: 'pinned', guards: [] },
  },
  NO_ADDITIONS,
);
export const VULNERABLE_003 = combination({ server: { advertise: 'static' }, client: { parser: 'pinned', guards: [] } }, NO_ADDITIONS);

const v000 = VULNERABLE_000;
const with000 = (server: Partial<Combination['server']>, client: Partial<Combination['client']> = {}) =>
  combination({ server: { ...v000.server, ...server }, client: { ...v000.client, ...client } }, NO_ADDITIONS);
const with003 = (server: Partial<Combination['server']>, client: Partial<Combination['client']> = {}) =>
  combination({ server: { ...VULNERABLE_003.server, ...server }, client: { ...VULNERABLE_003.client, ...client } }, NO_ADDITIONS);

const cell000 = (name: string, role: Cell['role'], c: Combination): Cell => ({
  name,
  seed: '000',
  role,
  combination: c,
  faults: ALPHABET_000,
  property: 'no-silent-empty',
  progressCalls: false,
});
const cell003 = (name: string, role: Cell['role'], c: Combination, faults = ALPHABET_003): Cell => ({
  name,
  seed: '003',
  role,
  combination: c,
  faults,
  property: 'no-silent-hang',
  progressCalls: true,
});

export const DOES_NOT_APPLY_000: readonly Cell[] = [
  cell000('server.reinit=reject', 'does-not-apply', with000({ reinit: 'reject' })),
  cell000('server.reinit=pin-first', 'does-not-apply', with000({ reinit: 'pin-first' })),
  cell000('server.reinit=idempotent', 'does-not-apply', with000({ reinit: 'idempotent' })),
  cell000('server.streaming=accept-header with client.accept=always', 'does-not-apply', with000({ streaming: 'accept-header' })),
  cell000('client.reconnect=replay-cached', 'does-not-apply', with000({}, { reconnect: 'replay-cached' })),
  cell000('client.guards=content-type', 'does-not-apply', with000({}, { guards: ['content-type'] })),
  cell000('client.guards=compare-init', 'does-not-apply', with000({}, { guards: ['compare-init'] })),
];

export const DOES_NOT_APPLY_003: readonly Cell[] = [
  cell003('server.advertise=per-transport', 'does-not-apply', with003({ advertise: 'per-transport' })),
  cell003('client.parser=adaptive', 'does-not-apply', with003({}, { parser: 'adaptive' })),
  cell003('client.guards=probe', 'does-not-apply', with003({}, { guards: ['probe'] })),
];

export const BEYOND_000: readonly Cell[] = [
  cell000('server.reinit=new-session', 'beyond', with000({ reinit: 'new-session' })),
  cell000('client.reconnect=new-session', 'beyond', with000({}, { reconnect: 'new-session' })),
  cell000('server.reinit=reject with client.reconnect=new-session', 'beyond', with000({ reinit: 'reject' }, { reconnect: 'new-session' })),
  cell000('client.accept=from-config', 'beyond', with000({}, { accept: 'from-config' })),
  cell000(
    'client.accept=from-config with server.streaming=accept-header',
    'beyond',
    with000({ streaming: 'accept-header' }, { accept: 'from-config' }),
  ),
];

/** Record 003's cells again, where a 502 makes the client re-initialize a live session. */
export const BEYOND_003: readonly Cell[] = [
  cell003('vulnerable, with http-502', 'beyond', VULNERABLE_003, ALPHABET_003_WITH_502),
  ...DOES_NOT_APPLY_003.map((c) => cell003(`${c.name}, with http-502`, 'beyond', c.combination, ALPHABET_003_WITH_502)),
];

export const SEED_CELLS: readonly Cell[] = [
  cell000('record 000 vulnerable', 'vulnerable', VULNERABLE_000),
  ...DOES_NOT_APPLY_000,
  cell003('record 003 vulnerable', 'vulnerable', VULNERABLE_003),
  ...DOES_NOT_APPLY_003,
  ...BEYOND_000,
  ...BEYOND_003,
];

/** A named cell a policy module adds to the default matrix (plugins/policy-module.ts). */
export type ExtraCell = Cell | (Omit<Cell, 'seed' | 'property'> & { seed: null; property: null });
