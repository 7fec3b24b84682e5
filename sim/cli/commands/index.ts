// Every CLI command, in the order `mcp-faultsim --help` lists them, with the line it lists: a command
// is one file that exports `command = { name, run }`, and adding one is a line here. Each is loaded
// only when it runs: `list` need not load the wire tier, msw and the SDK to start, nor --help every
// command (0.8 s of CPU when it loaded them all for these lines).
export interface Command {
  name: string;
  /** Returns the exit status. Throws UsageError for bad input. */
  run(argv: readonly string[], out: NodeJS.WritableStream): Promise<number>;
}

export interface CommandEntry {
  name: string;
  /** Its line in `mcp-faultsim --help`. */
  summary: string;
  load(): Promise<Command>;
}

export const COMMANDS: readonly CommandEntry[] = [
  {
    name: 'compare',
    summary: 'run a matrix of policy combinations and write Markdown, HTML and JSON reports of which fail silently, loudly, or not at all',
    load: async () => (await import('./compare.ts')).command,
  },
  {
    name: 'check',
    summary: 'run the properties over one combination and print shrunk counterexamples',
    load: async () => (await import('./check.ts')).command,
  },
  {
    name: 'explore',
    summary: 'explore every fault plan up to a depth: a bounded proof, or the shortest counterexample',
    load: async () => (await import('./explore.ts')).command,
  },
  {
    name: 'replay',
    summary: 'replay a saved counterexample and check that it reproduces identically',
    load: async () => (await import('./replay.ts')).command,
  },
  {
    name: 'merge',
    summary: "join the compare.json of 'compare --shard' runs into the full reports",
    load: async () => (await import('./merge.ts')).command,
  },
  {
    name: 'audit',
    summary: 'run the fixed fault scenarios against one server; verdict and evidence per scenario',
    load: async () => (await import('./audit.ts')).command,
  },
  {
    name: 'list',
    summary: 'print the knobs, values, defaults, faults and properties',
    load: async () => (await import('./list.ts')).command,
  },
  {
    name: 'proxy',
    summary: 'a loopback HTTP fault proxy applying a saved plan to any client',
    load: async () => (await import('./proxy.ts')).command,
  },
];
