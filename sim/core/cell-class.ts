// What a designer reads first about a cell: how the agent's calls fared in it. Shared vocabulary of
// the comparison and its reports (a duplicate execution the agent never hears of counts as silent).
// `broken without faults`: a fault-free run already fails a call (the sides cannot talk at all), so
// no fault run says anything about the combination (compare/fault-free.ts).
export type CellClass = 'policy-error' | 'broken without faults' | 'silent' | 'loud, never recovers' | 'loud, recovers' | 'clean';
export const CELL_CLASSES: readonly CellClass[] = [
  'policy-error',
  'broken without faults',
  'silent',
  'loud, never recovers',
  'loud, recovers',
  'clean',
];
