// The ecosystem matrix as one self-contained HTML page (no script, no external asset) and as JUnit
// XML (one suite per client × revision × server, one test case per scenario: a non-pass is a
// <failure>, an audit that did not finish an <error>).
import type { ClientMatrix } from '../sim/audit/client/matrix.ts';
import { xmlEscape } from './audit-junit.ts';
import { cellText, matrixLines, matrixScenarios, notTestedGroups } from './client-matrix-text.ts';
import { esc } from './escape.ts';

export function renderMatrixHtml(m: ClientMatrix): string {
  const scenarios = matrixScenarios(m);
  const lines = matrixLines(m)
    .map((line) => {
      const { client, revision, server } = line.label;
      const cells = line.error
        ? `<td colspan="${scenarios.length || 1}" class="bad">did not finish: ${esc(line.error)}</td>`
        : scenarios
            .map((s) => {
              const r = line.cells.get(s);
              const title = r ? `${r.agentWhy} | library: ${r.libraryWhy}` : 'not applicable';
              return `<td class="${r?.nonPass ? 'bad' : r ? 'ok' : 'na'}" title="${esc(title)}">${esc(cellText(r))}</td>`;
            })
            .join('');
      return `<tr><td>${esc(client)}</td><td>${esc(revision)}</td><td>${esc(server)}</td>${cells}</tr>`;
    })
    .join('\n');
  const failed = m.rows.filter((r) => r.nonPass);
  const details = failed
    .map(
      (r) =>
        `<section><h3>${esc(`${r.client} · ${r.revision} · ${r.server} · ${r.scenario}`)}</h3><ul>` +
        `<li>plan: ${esc(r.plan)}</li>` +
        `<li>agent: <b>${esc(r.agent)}</b>: ${esc(r.agentWhy)}<br><small>${esc(r.evidence)}</small></li>` +
        `<li>library alone: <b>${esc(r.libraryVerdict)}</b> (${esc(r.library)}): ${esc(r.libraryWhy)}<br><small>${esc(r.libraryEvidence)}</small></li>` +
        r.broken
          .map((b) => `<li>breaks <code>${esc(b.requirement)}</code> (${esc(b.level)}): “${esc(b.text)}” — ${esc(b.detail)}</li>`)
          .join('') +
        `<li>reproduce: <code>${esc(r.reproduce)}</code></li></ul></section>`,
    )
    .join('\n');
  const clients = m.clients
    .map(
      (c) =>
        `<tr><td>${esc(c.name)}</td><td><code>${esc(c.package)}</code></td><td>${esc(c.version)}</td><td>${esc(c.revisions.join(', '))}</td><td>${esc(c.wraps ?? '–')}</td><td>${esc(c.notes)}</td></tr>`,
    )
    .join('\n');
  const groups = notTestedGroups(m);
  const untested = groups.length
    ? `<h2>Not tested (${groups.reduce((n, g) => n + g.cells.length, 0)})</h2>\n<p>A cell is not tested where its fault did not act on what the scenario judges: the verdict says nothing of the client.</p>\n<ul>${groups
        .map((g) => `<li><code>${esc(g.scenario)}</code>: ${esc(g.why)} (${g.cells.length}: ${esc(g.cells.join(', '))})</li>`)
        .join('')}</ul>\n`
    : '';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>mcp-faultsim client audit: ${esc(m.manifest)}</title>
<style>body{font:14px system-ui,sans-serif;margin:2em}table{border-collapse:collapse}td,th{border:1px solid #d0d7de;padding:4px 8px;vertical-align:top;text-align:left}code{font-size:13px}.bad{background:#ffebe9}.ok{background:#dafbe1}.na{color:#57606a}</style>
</head><body>
<h1>Client audit: ${esc(m.manifest)}</h1>
<p>Each cell: the agent's verdict under the agent loop / the library's verdict with its own defaults: what it did (hover for why). ${m.passed ? 'Every printed verdict passes.' : 'A printed verdict does not pass.'}</p>
<table><thead><tr><th>client</th><th>revision</th><th>server</th>${scenarios.map((s) => `<th><code>${esc(s)}</code></th>`).join('')}</tr></thead><tbody>
${lines}
</tbody></table>
<h2>Not passing (${failed.length})</h2>
${details}
${untested}<h2>Clients</h2>
<table><thead><tr><th>client</th><th>package</th><th>version</th><th>revisions</th><th>wraps</th><th>notes</th></tr></thead><tbody>
${clients}
</tbody></table>
</body></html>
`;
}

export function renderMatrixJunit(m: ClientMatrix): string {
  const out = ['<?xml version="1.0" encoding="UTF-8"?>'];
  const failures = m.rows.filter((r) => r.nonPass).length;
  const errors = m.audits.filter((a) => 'error' in a.result).length;
  out.push(
    `<testsuites name="${xmlEscape(`mcp-faultsim client audit ${m.manifest}`)}" tests="${m.rows.length + errors}" failures="${failures}" errors="${errors}">`,
  );
  for (const line of matrixLines(m)) {
    const name = xmlEscape(`${line.label.client} ${line.label.revision} ${line.label.server}`);
    const cells = [...line.cells.values()];
    const bad = cells.filter((r) => r.nonPass).length;
    out.push(`  <testsuite name="${name}" tests="${line.error ? 1 : cells.length}" failures="${bad}" errors="${line.error ? 1 : 0}">`);
    if (line.error)
      out.push(`    <testcase classname="${name}" name="audit" time="0"><error message="${xmlEscape(line.error)}"/></testcase>`);
    for (const r of cells) {
      const open = `    <testcase classname="${name}" name="${xmlEscape(r.scenario)}" time="0"`;
      if (!r.nonPass) {
        out.push(`${open}/>`);
        continue;
      }
      const body = [
        `agent: ${r.agent}: ${r.agentWhy}`,
        `library: ${r.libraryVerdict} (${r.library}): ${r.libraryWhy}`,
        ...r.broken.map((b) => `breaks ${b.requirement} (${b.level}): ${b.detail}`),
        `reproduce: ${r.reproduce}`,
      ].join('\n');
      const type = r.agent === 'pass' ? `library ${r.libraryVerdict}` : r.agent;
      out.push(
        `${open}>`,
        `      <failure type="${xmlEscape(type)}" message="${xmlEscape(`agent ${r.agent} / library ${r.libraryVerdict} (${r.library})`)}">${xmlEscape(body)}</failure>`,
        '    </testcase>',
      );
    }
    out.push('  </testsuite>');
  }
  out.push('</testsuites>', '');
  return out.join('\n');
}
