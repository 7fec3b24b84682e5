// Reading a counterexample file back (corpus/counterexample-file.ts writes one): its format and
// versions checked first, each in a line a user can act on, then its shape by the zod schema. Apart
// from the writer, so that a command that only writes them (compare, check) never loads zod.
import { HISTORY_VERSION } from '../core/history.ts';
import { parseWith } from '../core/schema-issue.ts';
import { TOOL } from '../core/tool.ts';
import { BadCounterexample, COUNTEREXAMPLE_FORMAT, COUNTEREXAMPLE_VERSION, type CounterexampleFile } from './counterexample-file.ts';
import { counterexampleSchema } from './counterexample-schema.ts';

function kindOf(v: unknown): string {
  return Array.isArray(v) ? 'array' : v === null ? 'null' : typeof v;
}

/** Parse and check a counterexample file's text. Throws BadCounterexample. */
export function parseCounterexample(text: string): CounterexampleFile {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new BadCounterexample(`not valid JSON (${(e as Error).message.split('\n')[0]}); the file may be truncated`);
  }
  if (kindOf(raw) !== 'object') throw new BadCounterexample(`expected a JSON object, found ${kindOf(raw)}`);
  const o = raw as Record<string, unknown>;
  if (o.format !== COUNTEREXAMPLE_FORMAT)
    throw new BadCounterexample(
      `not a counterexample file (format is ${JSON.stringify(o.format ?? null)}, expected "${COUNTEREXAMPLE_FORMAT}")`,
    );
  if (o.version !== COUNTEREXAMPLE_VERSION) {
    throw new BadCounterexample(
      `counterexample format version ${JSON.stringify(o.version ?? null)} is not supported (this is ${TOOL.name} ${TOOL.version}, which reads version ${COUNTEREXAMPLE_VERSION})`,
    );
  }
  if (o.historyVersion !== HISTORY_VERSION)
    throw new BadCounterexample(
      `history version ${JSON.stringify(o.historyVersion ?? null)} is not supported (expected ${HISTORY_VERSION})`,
    );
  const parsed = parseWith(counterexampleSchema, o);
  if (!parsed.ok) throw new BadCounterexample(parsed.message);
  // The file as written, not zod's copy: histories are compared as JSON, key order included. Only
  // its combination is zod's, knobs the file predates given their defaults (a 2025-11-25 file).
  return { ...o, combination: parsed.value.combination } as unknown as CounterexampleFile;
}
