// Knobs that a revision does not have are "not applicable" in every report, never silently ignored:
// `server.reinit` configures nothing between a 2026-07-28 client and server.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run, tempDir } from '../sim/cli/run.ts';

describe('not applicable knobs', () => {
  it('check names them under the combination', async () => {
    const r = await run(
      'check',
      '--server',
      'protocol=2026-07-28',
      '--client',
      'protocol=2026-07-28',
      '--faults',
      'stream-cut',
      '--runs',
      '20',
      '--quiet',
    );
    expect(r.stdout).toMatch(/^n\/a {5}server\.reinit, server\.advertise, server\.idempotency, client\.reconnect /m);
    const legacy = await run('check', '--faults', 'stream-cut', '--runs', '20', '--quiet');
    expect(legacy.stdout).not.toMatch(/^n\/a/m);
  });

  it('compare carries them in the JSON and shows them in the Markdown and the HTML', async () => {
    const out = tempDir('na');
    const cut = ['--server', 'protocol=2026-07-28', '--client', 'protocol=2026-07-28,guards=compare-init'];
    const r = await run('compare', '--matrix', 'migration', ...cut, '--runs', '20', '--quiet', '--out', out);
    expect(r.code, r.stderr).toBe(0);
    const json = JSON.parse(readFileSync(join(out, 'compare.json'), 'utf8'));
    expect(json.cells.length).toBeGreaterThan(0);
    for (const c of json.cells)
      expect(c.notApplicable).toEqual([
        'server.reinit',
        'server.advertise',
        'server.idempotency',
        'client.reconnect',
        'client.guards=compare-init',
      ]);
    expect(readFileSync(join(out, 'compare.md'), 'utf8')).toContain(
      'not applicable: server.reinit, server.advertise, server.idempotency, client.reconnect, client.guards=compare-init',
    );
    expect(readFileSync(join(out, 'compare.html'), 'utf8')).toContain('data-reinit="honor-last (not applicable)"');
  });
});
