// Every CLI command, in the order `mcp-faultsim --help` lists them. A command is one file that exports
// `command = { name, summary, run }`; adding one is a line here. Each is loaded when it runs (or
// when --help lists them all): `list` need not load the wire tier, msw and the SDK to start.
export interface Command {
  name: string;
  summary: string;
  /** Returns the exit status. Throws UsageError for bad input. */
  run(argv: readonly string[], out: NodeJS.WritableStream): Promise<number>;
}

export interface CommandEntry {
  name: string;
  load(): Promise<Command>;
}

export const COMMANDS: readonly CommandEntry[] = [
  { name: 'compare', load: async () => (await import('./compare.ts')).command },
  { name: 'check', load: async () => (await import('./check.ts')).command },
  { name: 'explore', load: async () => (await import('./explore.ts')).command },
  { name: 'replay', load: async () => (await import('./replay.ts')).command },
  { name: 'merge', load: async () => (await import('./merge.ts')).command },
  { name: 'audit', load: async () => (await import('./audit.ts')).command },
  { name: 'list', load: async () => (await import('./list.ts')).command },
  { name: 'proxy', load: async () => (await import('./proxy.ts')).command },
];
