// The client matrix's reports say why a cell is not tested: the cell names no behaviour of the
// library (its fault never landed, there is none to name), and a "Not tested" section groups the
// cells by scenario and reason, in the Markdown (docs/audit-clients.md) and the HTML alike.
import { describe, expect, it } from 'vitest';
import type { ClientMatrix, MatrixRow } from '../../sim/audit/client/matrix.ts';
import { renderMatrixHtml } from '../../reports/client-matrix-html.ts';
import { cellText, renderMatrixMarkdown } from '../../reports/client-matrix-text.ts';

const why = 'strip-header:last-event-id did not act in this run: no last-event-id header to strip';
const row = (client: string, scenario: string, verdict: 'pass' | 'not tested'): MatrixRow => ({
  client,
  revision: '2025-11-25',
  server: 'model',
  scenario,
  plan: 'stream-cut at request 3, then strip-header:last-event-id at request 4',
  agent: verdict,
  agentWhy: verdict === 'pass' ? 'recovered' : why,
  evidence: 'call 0 ok',
  library: verdict === 'pass' ? 'recovered' : 'not applicable',
  libraryVerdict: verdict,
  libraryWhy: verdict === 'pass' ? 'recovered' : why,
  libraryEvidence: 'call 0 ok',
  broken: [],
  reproduce: 'mcp-faultsim audit …',
  nonPass: false,
});

const matrix: ClientMatrix = {
  manifest: 'clients.json',
  clients: [],
  audits: ['a', 'b'].map((client) => ({ client, revision: '2025-11-25', server: 'model', result: {} }) as never),
  rows: [row('a', 'strip-last-event-id', 'not tested'), row('b', 'strip-last-event-id', 'not tested'), row('a', 'http-502-call', 'pass')],
  passed: true,
  agentTimeoutMs: 5000,
};

describe('a not-tested cell of the client matrix', () => {
  it('names no behaviour, and a passing one still does', () => {
    expect(cellText(matrix.rows[0])).toBe('not tested / not tested');
    expect(cellText(matrix.rows[2])).toBe('pass / pass: recovered');
  });

  it('is listed with its reason, its cells grouped, in the Markdown and the HTML', () => {
    const md = renderMatrixMarkdown(matrix);
    expect(md).toContain('# Not tested (2)');
    expect(md).toContain(`- \`strip-last-event-id\`: ${why} (2: a 2025-11-25 model, b 2025-11-25 model)`);
    const html = renderMatrixHtml(matrix);
    expect(html).toContain('<h2>Not tested (2)</h2>');
    expect(html).toContain('(2: a 2025-11-25 model, b 2025-11-25 model)');
  });
});
