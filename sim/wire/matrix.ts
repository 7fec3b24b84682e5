// `compare --wire`: real-SDK rows beside the model's. For the cells of a matrix, for each SDK line
// (v1 `sdk`, v2 `sdk2`): its client against each of their model servers, each of their model
// clients against its two server presets, and its client against both presets; the v2 line once
// more in 2026-07-28 (client and servers; the model speaks 2025-11-25 only). Each under the fault
// alphabets and workload shapes the model cells use, without duplicates, after the model cells.
import { DEFAULT_CLIENT, DEFAULT_SERVER, formatClient, formatServer, type ClientPolicy, type ServerPolicy } from '../../models/policies.ts';
import type { CellRunner } from '../compare/compare.ts';
import { slug, type MatrixCell, type WireChoice } from '../compare/matrix.ts';
import type { WireSetup } from './setup.ts';
import { wireCheck } from './check.ts';

const LINES = [
  { client: 'sdk', presets: ['sdk-sse', 'sdk-json'] },
  { client: 'sdk2', presets: ['sdk2-sse', 'sdk2-json'] },
] as const;

function alphabetLabel(cell: MatrixCell): string {
  return cell.alphabet === 'all faults' ? 'all faults' : `faults ${cell.faults.join(', ')}`;
}

function wireCell(from: MatrixCell, wire: WireChoice, server: ServerPolicy, client: ClientPolicy): Omit<MatrixCell, 'index'> {
  const revision = wire.protocol ? ` protocol=${wire.protocol}` : '';
  const clientName =
    wire.client === 'sdk'
      ? 'SDK client'
      : wire.client === 'sdk2'
        ? `SDK v2 client${revision}`
        : wire.client === 'cmd'
          ? `client process ${wire.command}`
          : `model client ${formatClient(client)}`;
  const serverName =
    wire.server === 'model'
      ? `model server ${formatServer(server)}`
      : `SDK server ${wire.server}${wire.server.startsWith('sdk2') ? revision : ''}`;
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
  // One line after the other, so that the v1 rows keep the indexes they had before v2 rows existed.
  for (const line of LINES) {
    for (const cell of model) {
      const { server, client } = cell.combination;
      add(wireCell(cell, { client: line.client, server: 'model' }, server, DEFAULT_CLIENT));
      for (const preset of line.presets) add(wireCell(cell, { client: 'model', server: preset }, DEFAULT_SERVER, client));
      for (const preset of line.presets) add(wireCell(cell, { client: line.client, server: preset }, DEFAULT_SERVER, DEFAULT_CLIENT));
      if (line.client === 'sdk2')
        for (const preset of line.presets)
          add(wireCell(cell, { client: 'sdk2', server: preset, protocol: '2026-07-28' }, DEFAULT_SERVER, DEFAULT_CLIENT));
    }
  }
  return out.map((c, i) => ({ ...c, index: model.length + i }));
}

/** The wire rows of `compare --wire --client-cmd CMD`. A client process has no knobs to vary, so its rows
 *  vary the server side only: the client against each model server of the matrix (under that cell's
 *  fault alphabet and workload shape), and against the SDK v1 server presets. */
export function clientCmdCells(model: readonly MatrixCell[], command: string): MatrixCell[] {
  const out: Omit<MatrixCell, 'index'>[] = [];
  const seen = new Set<string>();
  const add = (c: Omit<MatrixCell, 'index'>) => {
    const key = JSON.stringify([c.wire, c.combination.server, c.faults, c.shape]);
    if (!seen.has(key)) out.push(c), seen.add(key);
  };
  for (const cell of model) add(wireCell(cell, { client: 'cmd', command, server: 'model' }, cell.combination.server, DEFAULT_CLIENT));
  for (const cell of model)
    for (const preset of LINES[0].presets) add(wireCell(cell, { client: 'cmd', command, server: preset }, DEFAULT_SERVER, DEFAULT_CLIENT));
  return out.map((c, i) => ({ ...c, index: model.length + i }));
}

export function wireSetup(cell: MatrixCell & { wire: WireChoice }): WireSetup {
  const { wire, combination } = cell;
  const protocol = wire.protocol ?? '2025-11-25';
  const client: WireSetup['client'] =
    wire.client === 'cmd'
      ? { kind: 'cmd', command: wire.command ?? '' }
      : wire.client === 'sdk'
        ? { kind: 'sdk' }
        : wire.client === 'sdk2'
          ? { kind: 'sdk2', protocol }
          : { kind: 'model', policy: combination.client };
  const server: WireSetup['server'] =
    wire.server === 'model'
      ? { kind: 'model', policy: combination.server }
      : wire.server === 'sdk2-sse' || wire.server === 'sdk2-json'
        ? { kind: 'sdk2', preset: wire.server, protocol }
        : { kind: 'sdk', preset: wire.server };
  return { client, server };
}

/** Runs wire cells through the wire tier and every other cell with `model`. */
export function withWire(model: CellRunner): CellRunner {
  return (cell, config, onProgress) => {
    if (!cell.wire) return model(cell, config, onProgress);
    return wireCheck(wireSetup(cell as MatrixCell & { wire: WireChoice }), {
      faults: cell.faults,
      shape: cell.shape,
      seed: config.seed,
      runs: config.runs,
      properties: config.properties,
      wire: { additions: config.world.additions },
      ...(onProgress ? { onProgress } : {}),
    });
  };
}
