// `node --import tsx --import ./bench/compiled-code.mjs bench/section-process.ts PART [--quick]`: one
// part of the exhaustive section in a process of its own (bench/apart.ts starts it), its figures as
// JSON on stdout; its progress goes to stderr as the bench's does.
import { EXHAUSTIVE_PARTS, measurePart, type ExhaustivePart } from './exhaustive.ts';

const PARTS = Object.keys(EXHAUSTIVE_PARTS);
const [part, ...rest] = process.argv.slice(2);
if (!PARTS.includes(part as ExhaustivePart)) {
  process.stderr.write(`bench/section-process.ts: the parts are ${PARTS.join(', ')}, not '${part}'\n`);
  process.exit(2);
}
const figures = await measurePart(part as ExhaustivePart, rest.includes('--quick'));
process.stdout.write(`${JSON.stringify(figures)}\n`);
