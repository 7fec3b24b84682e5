// The SDK v2 presets as users name them (`--client sdk2,protocol=…`, `--server sdk2-sse,protocol=…`),
// how reports name them, and the v2 rows `compare --wire` adds after the v1 rows.
import { describe, expect, it } from 'vitest';
import { seedMatrix } from '../../../sim/compare/matrix.ts';
import { wireCells, wireSetup } from '../../../sim/wire/matrix.ts';
import { clientPreset, describeSides, serverPreset, WirePresetError } from '../../../sim/wire/setup.ts';
import { itRejects, run } from '../cli/run.ts';

describe('preset names', () => {
  it('sdk2 speaks 2025-11-25 unless told; the v2 servers take dual too; v1 and knob lists are not v2 presets', () => {
    expect(clientPreset('sdk2')).toEqual({ kind: 'sdk2', protocol: '2025-11-25' });
    expect(clientPreset('sdk2,protocol=negotiate')).toEqual({ kind: 'sdk2', protocol: 'negotiate' });
    expect(clientPreset('sdk')).toEqual({ kind: 'sdk' });
    expect(clientPreset('parser=adaptive')).toBeNull();
    expect(clientPreset('reconnect=new-session,parser=adaptive')).toBeNull();
    expect(serverPreset('sdk2-json,protocol=dual')).toEqual({ kind: 'sdk2', preset: 'sdk2-json', protocol: 'dual' });
    expect(serverPreset('sdk-sse')).toEqual({ kind: 'sdk', preset: 'sdk-sse' });
    expect(serverPreset('reinit=reject,streaming=accept-header')).toBeNull();
    expect(() => clientPreset('sdk2,protocol=dual')).toThrow(WirePresetError);
    expect(() => serverPreset('sdk-json,protocol=2026-07-28')).toThrow(/speaks 2025-11-25 only/);
  });

  it('reports name the revision of every v2 side', () => {
    const sides = describeSides({
      client: { kind: 'sdk2', protocol: '2026-07-28' },
      server: { kind: 'sdk2', preset: 'sdk2-sse', protocol: 'dual' },
    });
    expect(sides).toEqual({ client: 'sdk2 protocol=2026-07-28', server: 'sdk2-sse protocol=dual' });
  });
});

describe('check --wire with the v2 presets', () => {
  it('runs sdk2 × sdk2-json in 2026-07-28 and names both sides', async () => {
    const r = await run(
      'check',
      '--wire',
      '--client',
      'sdk2,protocol=2026-07-28',
      '--server',
      'sdk2-json,protocol=2026-07-28',
      '--faults',
      'http-502',
      '--runs',
      '5',
      '--json',
    );
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.wire).toEqual({ client: 'sdk2 protocol=2026-07-28', server: 'sdk2-json protocol=2026-07-28' });
    expect(out.stats.faultsApplied['http-502']).toBeGreaterThan(0);
  });

  it('--help names the v2 presets and the revisions they speak', async () => {
    const r = await run('check', '--help');
    expect(r.stdout).toContain('--client sdk2');
    expect(r.stdout).toContain('--server sdk2-json');
    expect(r.stdout).toContain('sdk2,protocol=2025-11-25|2026-07-28|negotiate');
    expect(r.stdout).toContain('sdk2-sse,protocol=2025-11-25|2026-07-28|dual');
  });

  itRejects([
    [
      'a revision sdk2 does not speak',
      ['check', '--wire', '--client', 'sdk2,protocol=2024-01-01'],
      /preset 'sdk2' speaks protocol 2025-11-25, 2026-07-28, negotiate, not '2024-01-01'/,
    ],
    ['a revision on a v1 preset', ['check', '--wire', '--server', 'sdk-sse,protocol=2026-07-28'], /speaks 2025-11-25 only/],
    ['a knob on a preset', ['check', '--wire', '--client', 'sdk2,parser=adaptive'], /takes only protocol=/],
    ['a v2 preset without --wire', ['check', '--server', 'sdk2-sse'], /--server sdk2-sse is real code: add --wire/],
  ]);
});

describe('compare --wire rows', () => {
  const model = seedMatrix().map((c, index) => ({ ...c, index }));
  const rows = wireCells(model);
  const v2 = rows.filter((c) => c.wire!.client === 'sdk2' || c.wire!.server.startsWith('sdk2'));

  it('the v2 rows come after every v1 row, and the 2026-07-28 rows are v2 client × v2 server', () => {
    const firstV2 = rows.indexOf(v2[0]!);
    expect(rows.slice(0, firstV2).every((c) => c.wire!.client !== 'sdk2' && !c.wire!.server.startsWith('sdk2'))).toBe(true);
    expect(v2.length).toBe(rows.length - firstV2);
    const modern = v2.filter((c) => c.wire!.protocol === '2026-07-28');
    expect(modern.length).toBeGreaterThan(0);
    for (const c of modern)
      expect(wireSetup(c as typeof c & { wire: NonNullable<typeof c.wire> })).toMatchObject({
        client: { kind: 'sdk2', protocol: '2026-07-28' },
        server: { kind: 'sdk2', protocol: '2026-07-28' },
      });
    expect(new Set(rows.map((c) => c.id)).size).toBe(rows.length);
  });
});
