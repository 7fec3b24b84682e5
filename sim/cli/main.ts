// The CLI entry: dispatch a command; turn bad input into one line and exit 2, and anything
// unexpected into one line and exit 3 (the stack only with MCP_FAULTSIM_DEBUG=1).
import { COMMANDS } from './commands/index.ts';
import { EXIT, UsageError } from './errors.ts';

/** What package.json's `engines` says, and what .ci/run runs the suite on. */
export const NODE_SUPPORTED = '>=20';

export async function usage(): Promise<string> {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  return (
    [
      'usage: mcp-faultsim <command> [options]',
      '',
      'A deterministic fault-injection simulator for MCP sessions over HTTP.',
      '',
      'commands:',
      ...COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
      '',
      "Run 'mcp-faultsim <command> --help' for a command's options.",
      `Node ${NODE_SUPPORTED} (CI tests Node 20 and 24); this is Node ${process.versions.node}.`,
    ].join('\n') + '\n'
  );
}

export async function main(
  argv: readonly string[],
  out: NodeJS.WritableStream = process.stdout,
  err: NodeJS.WritableStream = process.stderr,
): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    out.write(await usage());
    return name === undefined ? EXIT.badInput : EXIT.ok;
  }
  const command = COMMANDS.find((c) => c.name === name);
  try {
    if (!command) throw new UsageError(`unknown command '${name}' (valid: ${COMMANDS.map((c) => c.name).join(', ')})`);
    return await (await command.load()).run(rest, out);
  } catch (e) {
    if (e instanceof UsageError) {
      err.write(`mcp-faultsim: ${e.message}\n`);
      return EXIT.badInput;
    }
    err.write(`mcp-faultsim: internal error: ${e instanceof Error ? e.message : String(e)} (set MCP_FAULTSIM_DEBUG=1 for the stack)\n`);
    if (process.env.MCP_FAULTSIM_DEBUG) err.write(`${e instanceof Error ? e.stack : ''}\n`);
    return EXIT.internal;
  }
}
