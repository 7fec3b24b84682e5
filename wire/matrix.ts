// `compare --wire`: real-SDK rows beside the model's. For the cells of a matrix, the official SDK
// client against each of their model servers, each of their model clients against the two SDK
// server presets, and the SDK client against both presets: each under the fault alphabets and
// workload shapes the model cells use, without duplicates, after the model cells.
import { DEFAULT_CLIENT, DEFAULT_SERVER, formatClient, formatServer, type ClientPolicy, type ServerPolicy } from '../models/policies.ts';
import type { CellRunner } from '../compare/compare.ts';
import { slug, type MatrixCell, type WireChoice } from '../compare/matrix.ts';
import type { WireSetup } from './setup.ts';
import { wireCheck } from './check.ts';

const PRESETS = ['sdk-sse', 'sdk-json'] as const;

function alphabetLabel(cell: MatrixCell): string {
  return cell.alphabet === 'all faults' ? 'all faults' : `faults ${cell.faults.join(', ')}`;
}

function wireCell(from: MatrixCell, wire: WireChoice, server: ServerPolicy, client: ClientPolicy): Omit<MatrixCell, 'index'> {
  const clientName = wire.client === 'sdk' ? 'SDK client' : `model client ${formatClient(client)}`;
  const serverName = wire.server === 'model' ? `model server ${formatServer(server)}` : `SDK server ${wire.server}`;
  const progress = from.shape.workload?.progress === 'always' ? ' · progress calls' : '';
  const name = `wire: ${clientName} × ${serverName} · ${alphabetLabel(from)}${progress}`;
  return {
    id: slug(name),
    name,
    record: null,
    role: 'product',
    alphabet: from.alphabet === 'all faults' ? 'all faults' : 'cell alphabet',
    // The knobs of the model side; the defaults stand for the real side (its `wire` names it).
    combination: { server, client },
    faults: from.faults,
    property: null,
    shape: from.shape,
    wire,
  };
}

/** The wire rows for a matrix's model cells, indexed after them. */
export function wireCells(model: readonly MatrixCell[]): MatrixCell[] {
  const out: Omit<MatrixCell, 'index'>[] = [];
  const seen = new Set<string>();
  const add = (c: Omit<MatrixCell, 'index'>) => {
    const key = JSON.stringify([c.wire, c.combination, c.faults, c.shape]);
    if (!seen.has(key)) out.push(c), seen.add(key);
  };
  for (const cell of model) {
    const { server, client } = cell.combination;
    add(wireCell(cell, { client: 'sdk', server: 'model' }, server, DEFAULT_CLIENT));
    for (const preset of PRESETS) add(wireCell(cell, { client: 'model', server: preset }, DEFAULT_SERVER, client));
    for (const preset of PRESETS) add(wireCell(cell, { client: 'sdk', server: preset }, DEFAULT_SERVER, DEFAULT_CLIENT));
  }
  return out.map((c, i) => ({ ...c, index: model.length + i }));
}

export function wireSetup(cell: MatrixCell & { wire: WireChoice }): WireSetup {
  const { wire, combination } = cell;
  return {
    client: wire.client === 'sdk' ? { kind: 'sdk' } : { kind: 'model', policy: combination.client },
    server: wire.server === 'model' ? { kind: 'model', policy: combination.server } : { kind: 'sdk', preset: wire.server },
  };
}

/** Runs wire cells through the wire tier and every other cell with `model`. */
export function withWire(model: CellRunner): CellRunner {
  return (cell, s) => {
    if (!cell.wire) return model(cell, s);
    return wireCheck(wireSetup(cell as MatrixCell & { wire: WireChoice }), {
      faults: cell.faults,
      shape: cell.shape,
      seed: s.seed,
      runs: s.runs,
      properties: s.properties,
      ...(s.onProgress ? { onProgress: s.onProgress } : {}),
    });
  };
}
