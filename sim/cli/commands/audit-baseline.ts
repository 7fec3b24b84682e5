// `audit --write-baseline FILE` and `audit --baseline FILE` (server, --client-cmd and --clients
// audits alike): the file's reading and writing, and the exit it decides, applied where the audit's
// exit is computed (audit.ts, audit-clients.ts). The rules are audit/baseline.ts's.
import { readFileSync, writeFileSync } from 'node:fs';
import {
  BaselineError,
  compareBaseline,
  describeBaseline,
  formatBaseline,
  parseBaseline,
  type BaselineEntry,
  type BaselineSection,
} from '../../audit/baseline.ts';
import { stringOption, type Parsed } from '../args.ts';
import { EXIT, UsageError } from '../errors.ts';

export interface BaselineRequest {
  write?: string;
  check?: string;
  /** The command line, for the written file's header. */
  command: string;
}

export function baselineRequest(args: Parsed, command: string): BaselineRequest {
  const write = stringOption(args, 'write-baseline');
  const check = stringOption(args, 'baseline');
  // Read before the audit runs: a file that cannot be read is bad input, not a finding an hour later.
  if (check !== undefined) readBaseline(check);
  return { ...(write !== undefined ? { write } : {}), ...(check !== undefined ? { check } : {}), command };
}

function readBaseline(file: string) {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new UsageError(`--baseline ${file}: cannot read it: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  try {
    return parseBaseline(text, file);
  } catch (e) {
    if (e instanceof BaselineError) throw new UsageError(`--baseline ${e.message}`);
    throw e;
  }
}

/** Writes and/or checks the baseline; the exit the baseline decides (null: no --baseline, the audit's own stands). */
export function applyBaseline(
  b: BaselineRequest,
  section: BaselineSection,
  entries: readonly BaselineEntry[],
  out: NodeJS.WritableStream,
  quiet: boolean,
): number | null {
  if (b.write !== undefined) {
    writeFileSync(b.write, formatBaseline(section, entries, b.command));
    if (!quiet) out.write(`wrote ${b.write} (${entries.length} expected non-pass(es) under ${section}:)\n`);
  }
  if (b.check === undefined) return null;
  const outcome = compareBaseline(readBaseline(b.check), section, entries);
  if (!quiet) out.write(`${describeBaseline(b.check, outcome).join('\n')}\n`);
  return outcome.passed ? EXIT.ok : EXIT.violated;
}
