// `compare --wire`: real-SDK rows beside the model's, through the same reports, deterministically.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { withoutTiming } from '../../fixtures/without-timing.ts';
import { parseCut } from '../../../sim/cli/commands/compare.ts';
import { buildMatrix } from '../../../sim/compare/matrix.ts';
import { DEFAULT_CLIENT } from '../../../models/policies.ts';
import { PROPERTIES } from '../../../properties/properties.ts';
import { clientCmdCells, withWire } from '../../../sim/wire/matrix.ts';
import { liveGroups } from '../../../sim/wire/process/process-groups.ts';
import { itRejects, run, tempDir } from './run.ts';
import { runConfig } from '../../../sim/plugins/run-config.ts';
import { NO_ADDITIONS } from '../../../models/additions.ts';

const CUT = [
  '--server',
  'reinit=honor-last,streaming=negotiated,advertise=static',
  '--client',
  'reconnect=replay-mutable,accept=always,parser=pinned,guards=',
];
const read = (dir: string, file: string) => readFileSync(join(dir, file), 'utf8');

describe('compare --wire', () => {
  let a: string;
  let b: string;
  beforeAll(async () => {
    a = tempDir('compare-wire-a');
    b = tempDir('compare-wire-b');
    for (const dir of [a, b]) {
      const r = await run('compare', '--quiet', '--wire', '--runs', '25', ...CUT, '--out', dir);
      expect(r.code, r.stderr).toBe(0);
    }
  }, 300_000);

  it('puts the SDK client, the SDK servers, and SDK against SDK beside the model cells', () => {
    const cells = JSON.parse(read(a, 'compare.json')).cells as { name: string; wire?: { client: string; server: string }; index: number }[];
    const model = cells.filter((c) => !c.wire);
    const wire = cells.filter((c) => c.wire);
    expect(model.map((c) => c.name)).toContain('record 000 vulnerable · record alphabet');
    expect(Math.min(...wire.map((c) => c.index))).toBe(model.length);
    const sides = new Set(
      wire.map(
        (c) =>
          `${c.wire!.client.startsWith('model') ? 'model' : c.wire!.client} × ${c.wire!.server.startsWith('model') ? 'model' : c.wire!.server}`,
      ),
    );
    expect([...sides].sort()).toEqual([
      'model × sdk-json',
      'model × sdk-sse',
      'model × sdk2-json protocol=2025-11-25',
      'model × sdk2-sse protocol=2025-11-25',
      'sdk × model',
      'sdk × sdk-json',
      'sdk × sdk-sse',
      'sdk2 protocol=2025-11-25 × model',
      'sdk2 protocol=2025-11-25 × sdk2-json protocol=2025-11-25',
      'sdk2 protocol=2025-11-25 × sdk2-sse protocol=2025-11-25',
      'sdk2 protocol=2026-07-28 × sdk2-json protocol=2026-07-28',
      'sdk2 protocol=2026-07-28 × sdk2-sse protocol=2026-07-28',
    ]);
    expect(wire.map((c) => c.name)).toContain('wire: SDK client × SDK server sdk-sse · faults http-502, config-reset');
  });

  it("reports what real code did: the pinned model client cannot read the SDK server's SSE answers, loudly", () => {
    const cells = JSON.parse(read(a, 'compare.json')).cells as {
      name: string;
      class: string;
      results: { property: string; outcomes: Record<string, number> }[];
    }[];
    const pinnedVsSse = cells.find(
      (c) => c.name.startsWith('wire: model client') && c.name.includes('× SDK server sdk-sse · faults http-502, config-reset'),
    )!;
    expect(pinnedVsSse.class).toBe('loud, never recovers');
    expect(pinnedVsSse.results[0]!.outcomes.ok).toBe(0);
    const md = read(a, 'compare.md');
    expect(md).toContain('| sdk-sse (real code) |');
    expect(md).not.toContain('## Other per-cell data');
  });

  it('gives byte-identical JSON twice, apart from timing', () => {
    expect(withoutTiming(read(a, 'compare.json'))).toBe(withoutTiming(read(b, 'compare.json')));
  });
});

// A client process has no knobs: its rows vary the server side only (docs/auditing.md, compare --help).
describe('compare --wire --client-cmd', () => {
  const TS = 'node examples/clients/ts-client.mjs';
  const model = buildMatrix('records', parseCut(CUT[1], CUT[3], NO_ADDITIONS));

  it('makes rows of the client process against each model server and the SDK v1 servers, nothing else', () => {
    const rows = clientCmdCells(model, TS);
    expect(new Set(rows.map((c) => c.wire!.client))).toEqual(new Set(['cmd']));
    expect(new Set(rows.map((c) => c.wire!.server))).toEqual(new Set(['model', 'sdk-sse', 'sdk-json']));
    expect(new Set(rows.map((c) => JSON.stringify(c.combination.client)))).toEqual(new Set([JSON.stringify(DEFAULT_CLIENT)]));
    expect(rows.map((c) => c.index)).toEqual(rows.map((_, i) => model.length + i));
    expect(rows[0]!.name).toMatch(/^wire: client process node examples\/clients\/ts-client\.mjs × model server /);
  });

  it('runs a row with the harness process as the client, and leaves no process', async () => {
    const row = clientCmdCells(model, TS).find((c) => c.wire!.server === 'sdk-json')!;
    const r = await withWire(() => {
      throw new Error('a wire row must not reach the model runner');
    })(row, runConfig({ seed: 1, runs: 1, properties: PROPERTIES }));
    expect((r as unknown as { wire: { client: string } }).wire.client).toBe(`cmd ${TS}`);
    expect(r.results.find((x) => x.property === 'no-silent-empty')!.verdict).not.toBe('violated');
    expect(liveGroups()).toEqual([]);
  }, 60_000);

  itRejects([
    ['--client-cmd without --wire', ['compare', '--client-cmd', TS], /--client-cmd needs --wire/],
    ['a client command that cannot run', ['compare', '--wire', '--client-cmd', 'exit 3', ...CUT], /compare --client-cmd: the fault-free/],
  ]);
});
