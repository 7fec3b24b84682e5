// A policy module's shape is checked before anything of it is registered: each mistake is one line
// naming where it is, and a module refused halfway registers nothing.
import { describe, expect, it } from 'vitest';
import { knobValues } from '../../../models/policies.ts';
import { PolicyLoadError, registerPolicies } from '../../../sim/plugins/policy-module.ts';
import { draftRegistry } from '../../../sim/plugins/loaded.ts';
import { NO_ADDITIONS } from '../../../models/additions.ts';

const decide = () => ({ kind: 'reject' as const });

function refusal(module: unknown, into = draftRegistry()): string {
  try {
    registerPolicies(module, 'm.ts', into);
  } catch (e) {
    expect(e).toBeInstanceOf(PolicyLoadError);
    return (e as Error).message;
  }
  throw new Error('the module was accepted');
}

describe('policy module shape', () => {
  const cases: [string, unknown, string][] = [
    ['not an object', [1], '--policies m.ts: the default export should be an object (use definePolicies({ … }))'],
    [
      'an unknown part',
      { servers: {} },
      "--policies m.ts: the module has an unknown key 'servers' (valid: server, client, faults, properties, cells)",
    ],
    ['a part of the wrong kind', { server: 'pin-first' }, '--policies m.ts: server should be an object, not string'],
    [
      'definitions that are not named',
      { server: { reinit: [] } },
      '--policies m.ts: server.reinit should be an object of named definitions, not array',
    ],
    [
      'a bad name',
      { server: { reinit: { PinAll: { describe: 'x', decide } } } },
      "--policies m.ts: server.reinit.PinAll is not a valid name: use lower-case letters, digits and '-'",
    ],
    [
      'a missing hook',
      { server: { reinit: { 'no-decide': { describe: 'x' } } } },
      '--policies m.ts: server.reinit.no-decide.decide should be a function, not missing',
    ],
    [
      'a hook that is not a function',
      { client: { guards: { g: { describe: 'x', checkResponse: 'yes' } } } },
      '--policies m.ts: client.guards.g.checkResponse should be a function, not string',
    ],
    [
      'a description that is not a string',
      { faults: { f: { describe: 3, request: decide } } },
      '--policies m.ts: faults.f.describe should be a string, not number',
    ],
    [
      'an unknown key in a definition',
      { server: { reinit: { r: { describe: 'x', decide, decides: decide } } } },
      "--policies m.ts: server.reinit.r has an unknown key 'decides' (valid: describe, decide, opening)",
    ],
    [
      'empty fault instances',
      { faults: { f: { describe: 'x', instances: [], request: decide } } },
      '--policies m.ts: faults.f.instances should not be empty',
    ],
    [
      'a property without holdsWhen',
      { properties: { p: { check: () => ({ holds: true, reached: true }) } } },
      '--policies m.ts: properties.p.holdsWhen should be a string, not missing',
    ],
    ['cells that are not a list', { cells: {} }, '--policies m.ts: cells should be an array, not object'],
    ['a cell without a name', { cells: [{ name: '  ' }] }, '--policies m.ts: cells[0].name should not be blank'],
    [
      'a cell of another record',
      { cells: [{ name: 'c', record: '001' }] },
      '--policies m.ts: cells[0].record should be "000" or "003", not "001"',
    ],
    [
      'a cell knob value that is not a string',
      { cells: [{ name: 'c', server: { reinit: 3 } }] },
      '--policies m.ts: cells[0].server.reinit should be a string, not number',
    ],
    // Checked against the registries, after the shape:
    [
      'a cell knob that does not exist',
      { cells: [{ name: 'c', server: { retries: '3' } }] },
      "--policies m.ts: cells[0].server: unknown knob 'retries'",
    ],
    [
      'a list for a server knob',
      { cells: [{ name: 'c', server: { reinit: ['reject'] } }] },
      '--policies m.ts: cells[0].server.reinit should be a string, not array',
    ],
    [
      'a list for a client knob that is not a set',
      { cells: [{ name: 'c', client: { parser: ['pinned'] } }] },
      "--policies m.ts: cells[0].client.parser: unknown value 'pinned'",
    ],
    [
      'a name already taken',
      { server: { reinit: { reject: { describe: 'x', decide } } } },
      "--policies m.ts: server.reinit 'reject' already exists (built in or registered by another module)",
    ],
    [
      'a guard with no hook',
      { client: { guards: { g: { describe: 'x' } } } },
      '--policies m.ts: client.guards.g needs checkResponse or checkReinitialize (or both)',
    ],
  ];
  for (const [name, module, message] of cases) {
    it(`${name}: one line`, () => {
      const m = refusal(module);
      expect(m.startsWith(message), m).toBe(true);
      expect(m).not.toContain('\n');
    });
  }

  it('a module refused for its shape registers nothing, not even the parts before the mistake', () => {
    const into = draftRegistry();
    refusal(
      { server: { reinit: { 'first-ok': { describe: 'fine', decide } } }, client: { reconnect: { broken: { describe: 'x' } } } },
      into,
    );
    expect(knobValues('server', 'reinit', into.additions)).not.toContain('first-ok');
  });

  it('a well-formed module registers its parts', () => {
    const { additions, cells } = registerPolicies(
      {
        server: { reinit: { 'first-ok': { describe: 'fine', decide } } },
        cells: [{ name: 'mine', record: '000', server: { reinit: 'first-ok' } }],
      },
      'm.ts',
    );
    expect(knobValues('server', 'reinit', additions)).toContain('first-ok');
    // Into its own registry only: the built-ins, and any other registry, stay as they were.
    expect(knobValues('server', 'reinit', NO_ADDITIONS)).not.toContain('first-ok');
    expect(cells.map((c) => [c.name, c.combination.server.reinit])).toEqual([['mine', 'first-ok']]);
  });
});
