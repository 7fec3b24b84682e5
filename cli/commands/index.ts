// Every CLI command, in the order `mcp-faultsim --help` lists them. A command is one file that exports
// `command = { name, summary, run }`; adding one is a line here.
import { command as check } from './check.ts';
import { command as compare } from './compare.ts';
import { command as explore } from './explore.ts';
import { command as list } from './list.ts';
import { command as merge } from './merge.ts';
import { command as replay } from './replay.ts';

export interface Command {
  name: string;
  summary: string;
  /** Returns the exit status. Throws UsageError for bad input. */
  run(argv: readonly string[], out: NodeJS.WritableStream): Promise<number>;
}

export const COMMANDS: readonly Command[] = [compare, check, explore, replay, merge, list];
