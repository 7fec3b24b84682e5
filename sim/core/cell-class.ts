// What a designer reads first about a cell: how the agent's calls fared in it. Shared vocabulary of
// the comparison and its reports (a duplicate execution the agent never hears of counts as silent).
export type CellClass = 'policy-error' | 'silent' | 'loud, never recovers' | 'loud, recovers' | 'clean';
export const CELL_CLASSES: readonly CellClass[] = ['policy-error', 'silent', 'loud, never recovers', 'loud, recovers', 'clean'];
