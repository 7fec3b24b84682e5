// The ecosystem matrix (sim/audit/client/matrix.ts) in the terminal and as Markdown: one line per
// client × revision × server, one column per scenario, each cell the agent's verdict and the
// library's behaviour; then every non-pass with its evidence, the requirement it breaks (quoted) and
// the command that reproduces it; then the audits that did not finish.
import type { ClientMatrix, MatrixRow } from '../sim/audit/client/matrix.ts';
import { table } from './table.ts';

/** The library's behaviour in a cell: a word. */
export const LIBRARY_SHORT: Record<string, string> = {
  recovered: 'recovered',
  're-issued': 're-issued',
  'error at once': 'error',
  'error at its timeout': 'timeout',
  'never settled': 'HANG',
  'silent empty': 'EMPTY',
  'not applicable': 'n/a',
};

/** The scenarios that ran somewhere, in the audits' order. */
export function matrixScenarios(m: ClientMatrix): string[] {
  const seen: string[] = [];
  for (const r of m.rows) if (!seen.includes(r.scenario)) seen.push(r.scenario);
  return seen;
}

export interface MatrixLine {
  label: { client: string; revision: string; server: string };
  cells: Map<string, MatrixRow>;
  error?: string;
}

/** The matrix's lines: one per audit, its rows by scenario. */
export function matrixLines(m: ClientMatrix): MatrixLine[] {
  const rows = m.rows;
  return m.audits.map((a) => {
    const label = { client: a.client, revision: a.revision, server: a.server };
    const cells = new Map(
      rows.filter((r) => r.client === a.client && r.revision === a.revision && r.server === a.server).map((r) => [r.scenario, r]),
    );
    return 'error' in a.result ? { label, cells, error: a.result.error } : { label, cells };
  });
}

/** `agent / library: behaviour` (both verdicts as the exit rule reads them), with `!` where the row
 *  does not pass and `*` where a SHOULD is broken. */
export function cellText(r: MatrixRow | undefined): string {
  if (!r) return '–';
  const should = r.broken.some((b) => b.level === 'SHOULD') ? '*' : '';
  // A library run whose fault never landed did nothing to name: its reason is listed under "Not tested".
  const did = r.libraryVerdict === 'not tested' ? '' : `: ${LIBRARY_SHORT[r.library] ?? r.library}`;
  return `${r.agent} / ${r.libraryVerdict}${did}${r.nonPass ? ' !' : ''}${should}`;
}

/** The cells not tested (either verdict), grouped by scenario and reason: what a reader needs to know
 *  about a cell that says nothing of the client, and which cells share it. */
export interface NotTestedGroup {
  scenario: string;
  why: string;
  /** `client revision server` of each cell, and which of the two verdicts is not tested there. */
  cells: string[];
}

export function notTestedGroups(m: ClientMatrix): NotTestedGroup[] {
  const groups = new Map<string, NotTestedGroup>();
  for (const r of m.rows) {
    const agent = r.agent === 'not tested';
    const library = r.libraryVerdict === 'not tested';
    if (!agent && !library) continue;
    const why =
      agent && library && r.agentWhy !== r.libraryWhy
        ? `agent: ${r.agentWhy}; library: ${r.libraryWhy}`
        : agent
          ? r.agentWhy
          : r.libraryWhy;
    const key = `${r.scenario}\n${why}`;
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { scenario: r.scenario, why, cells: [] }));
    g.cells.push(`${r.client} ${r.revision} ${r.server}${agent && library ? '' : agent ? ' (agent)' : ' (library)'}`);
  }
  return [...groups.values()];
}

const clip = (text: string, n: number) => (text.length > n ? `${text.slice(0, n - 1)}…` : text);

const countOf = (values: readonly string[]) => {
  const by = new Map<string, number>();
  for (const v of values) by.set(v, (by.get(v) ?? 0) + 1);
  return [...by].map(([v, n]) => `${n} ${v}`).join(', ');
};

/** The summary counts what the cells show: both verdicts, each apart. */
function tally(m: ClientMatrix): string {
  const rows = m.rows;
  const failed = rows.filter((r) => r.nonPass).length;
  const errors = m.audits.filter((a) => 'error' in a.result).length;
  const verdicts = rows.length
    ? ` (agent: ${countOf(rows.map((r) => r.agent))}; library: ${countOf(rows.map((r) => r.libraryVerdict))})`
    : '';
  return `${m.audits.length} audits, ${rows.length} scenario runs${verdicts}, ${failed} not passing${errors ? `, ${errors} audits did not finish` : ''}`;
}

export function renderMatrixText(m: ClientMatrix): string {
  const lines = [`audit of the clients in ${m.manifest} (cell: agent verdict / library verdict: its behaviour; ! not passing)`, ''];
  for (const line of matrixLines(m)) {
    const head = `${line.label.client} ${line.label.revision} ${line.label.server}`;
    if (line.error) {
      lines.push(`${head}: did not finish: ${line.error}`);
      continue;
    }
    const cells = [...line.cells.values()].map((r) => `${r.scenario} ${cellText(r)}`);
    lines.push(`${head}: ${cells.join(', ') || 'no scenario ran'}`);
  }
  const failed = m.rows.filter((r) => r.nonPass);
  if (failed.length) {
    lines.push(
      '',
      table(
        ['client', 'rev', 'server', 'scenario', 'agent', 'library', 'breaks'],
        failed.map((r) => [
          r.client,
          r.revision,
          r.server,
          r.scenario,
          r.agent,
          `${r.libraryVerdict} (${r.library})`,
          clip(r.broken.map((b) => b.requirement).join(', ') || '-', 40),
        ]),
      ).trimEnd(),
    );
    for (const r of failed) lines.push(`  reproduce ${r.reproduce}`);
  }
  const errors = m.audits.some((a) => 'error' in a.result);
  const exit = m.passed
    ? 'every printed verdict passes (exit 0)'
    : errors
      ? 'an audit did not finish (exit 4)'
      : 'a printed verdict does not pass (exit 1)';
  lines.push('', `${tally(m)}: ${exit}`, '');
  return lines.join('\n');
}

const md = (text: string) => text.replaceAll('|', '\\|').replaceAll('\n', ' ');

/** The matrix and its non-passes as Markdown; `heading` is the level of the top heading; `upstream`
 *  the library's status of each non-pass where known (examples/clients/upstream.json, for the docs). */
export function renderMatrixMarkdown(
  m: ClientMatrix,
  heading = '#',
  repro?: ReadonlyMap<MatrixRow, string>,
  upstream?: ReadonlyMap<MatrixRow, string>,
): string {
  const scenarios = matrixScenarios(m);
  const h = (n: number) => '#'.repeat(heading.length + n);
  const out = [
    `${heading} Client audit: ${m.manifest}`,
    '',
    `${tally(m)}. Each cell: the agent's verdict under the agent loop (retry once, a new connect after a gone session, a ${m.agentTimeoutMs / 1000} s request timeout set through the library's option) / the library's verdict with that loop off and its own defaults, then what it did (recovered, re-issued, error: an error at once, timeout: an error only at its own request timeout, HANG: never settled, EMPTY: a silent empty result). \`!\` does not pass (the exit follows these verdicts); \`*\` breaks a SHOULD; – not applicable.`,
    '',
    `| client | revision | server | ${scenarios.map((s) => `\`${s}\``).join(' | ')} |`,
    `|---|---|---|${scenarios.map(() => '---').join('|')}|`,
  ];
  for (const line of matrixLines(m)) {
    const { client, revision, server } = line.label;
    const cells = line.error
      ? scenarios.map((_, i) => (i === 0 ? `did not finish: ${md(clip(line.error!, 80))}` : ''))
      : scenarios.map((s) => cellText(line.cells.get(s)));
    out.push(`| ${client} | ${revision} | ${server} | ${cells.join(' | ')} |`);
  }
  out.push('', `${h(1)} Clients`, '', '| client | package | version | revisions | wraps | notes |', '|---|---|---|---|---|---|');
  for (const c of m.clients)
    out.push(`| ${c.name} | \`${c.package}\` | ${c.version} | ${c.revisions.join(', ')} | ${c.wraps ?? '–'} | ${md(c.notes)} |`);
  const failed = m.rows.filter((r) => r.nonPass);
  out.push('', `${h(1)} Not passing (${failed.length})`, '');
  for (const r of failed) {
    out.push(
      `${h(2)} ${r.client} · ${r.revision} · ${r.server} · \`${r.scenario}\``,
      '',
      `- plan: ${r.plan}`,
      `- agent: **${r.agent}**: ${md(r.agentWhy)}`,
      `  - evidence: ${md(r.evidence)}`,
      `- library alone: **${r.libraryVerdict}** (${r.library}): ${md(r.libraryWhy)}`,
      `  - evidence: ${md(r.libraryEvidence)}`,
      ...r.broken.map((b) => `- breaks \`${b.requirement}\` (${b.level}): “${md(b.text)}” — ${md(b.detail)}`),
      `- reproduce: \`${r.reproduce}\``,
      ...(repro?.get(r) ? [`- standalone reproduction: \`${repro.get(r)}\``] : []),
      ...(upstream?.get(r) ? [`- upstream: ${md(upstream.get(r)!)}`] : []),
      '',
    );
  }
  const untested = notTestedGroups(m);
  if (untested.length) {
    out.push(`${h(1)} Not tested (${untested.reduce((n, g) => n + g.cells.length, 0)})`, '');
    out.push('A cell is not tested where its fault did not act on what the scenario judges: the verdict says nothing of the client.', '');
    for (const g of untested) out.push(`- \`${g.scenario}\`: ${md(g.why)} (${g.cells.length}: ${g.cells.join(', ')})`);
    out.push('');
  }
  const errors = m.audits.filter((a) => 'error' in a.result);
  if (errors.length) {
    out.push(`${h(1)} Did not finish`, '');
    for (const a of errors) out.push(`- ${a.client} ${a.revision} ${a.server}: ${'error' in a.result ? md(a.result.error) : ''}`);
    out.push('');
  }
  return out.join('\n');
}
