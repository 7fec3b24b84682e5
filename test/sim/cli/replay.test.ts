// `replay FILE`: exit 0 when a saved counterexample reproduces identically, 1 when it does not
// (saying what differs), 2 for a file that cannot be read as one.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run, tempDir } from './run.ts';

const CORPUS = 'test/corpus';
const SEED_000 = `${CORPUS}/no-silent-empty--defaults--22927e0718.json`;
const POLICY_ERROR = `${CORPUS}/policy-error--reinit-throws-on-reinit--04e34d6f3f.json`;
const dir = tempDir('replay');

// biome-ignore lint/suspicious/noExplicitAny: the tests corrupt a file on purpose, field by field
function variant(name: string, edit: (f: Record<string, any>) => void): string {
  const f = JSON.parse(readFileSync(SEED_000, 'utf8'));
  edit(f);
  const path = join(dir, name);
  writeFileSync(path, JSON.stringify(f));
  return path;
}

describe('replay', () => {
  it('reproduces a saved finding identically, printing the history step by step', async () => {
    const r = await run('replay', SEED_000);
    expect(r.code, r.stdout).toBe(0);
    expect(r.stdout).toContain('faults    config-reset before request 0, then http-502 at request 2');
    expect(r.stdout).toMatch(/t=\s+20 ms {2}network {2}fault http-502 at request 2: load balancer answered 502 Bad Gateway/);
    expect(r.stdout).toContain('call 0 returned an empty result after 2 attempts → silent-empty');
    expect(r.stdout).toContain('no-silent-empty: violated: call 0 returned a well-formed result');
    expect(r.stdout).toMatch(/reproduced identically \(40 steps\)\n$/);
  });

  it('exits 1 and says what differs when the history does not come back', async () => {
    const r = await run(
      'replay',
      '--quiet',
      variant('tampered.json', (f) => (f.expected.history[17].detail = 'something else')),
    );
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('NOT reproduced:');
    expect(r.stdout).toContain('history differs at step 18 of 40 expected');
  });

  it('exits 1 when the finding no longer happens', async () => {
    const r = await run(
      'replay',
      '--quiet',
      variant('no-502.json', (f) => (f.plan = [f.plan[0]])),
    );
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('no-silent-empty: expected "violated: call 0 returned');
    expect(r.stdout).toContain('got "holds"');
    expect(r.stdout).toContain('call outcomes: expected [{"callId":0,"outcome":"silent-empty"}], got [{"callId":0,"outcome":"ok"}]');
  });

  it('replays a policy error with the module that defines the policy', async () => {
    const ok = await run('replay', '--quiet', '--policies', 'test/fixtures/policies/throws.ts', POLICY_ERROR);
    expect(ok.code, ok.stdout).toBe(0);
    expect(ok.stdout).toContain(
      "policy-error: server.reinit=throws-on-reinit: decide threw TypeError: Cannot read properties of undefined (reading 'caps')",
    );
  });

  const bad: [string, () => string, RegExp][] = [
    ['a missing file', () => join(dir, 'missing.json'), /cannot read it \(ENOENT\)/],
    ['malformed JSON', () => variantText('malformed.json', '{"format": '), /not valid JSON .*truncated/],
    ['a truncated file', () => variantText('truncated.json', readFileSync(SEED_000, 'utf8').slice(0, 900)), /not valid JSON .*truncated/],
    [
      'a wrong version',
      () => variant('v2.json', (f) => (f.version = 2)),
      /counterexample format version 2 is not supported \(this is mcp-faultsim 0\.1\.0, which reads version 1\)/,
    ],
    ['another kind of file', () => variantText('other.json', '{"cells": []}'), /not a counterexample file \(format is null/],
    [
      'a field of the wrong type',
      () => variant('field.json', (f) => (f.plan[1].at = 'two')),
      /plan\[1\]\.at should be a number, not string/,
    ],
    [
      'a missing field',
      () => variant('nofield.json', (f) => delete f.expected.history),
      /expected\.history should be an array, not missing/,
    ],
    // Issue 12: each of these used to run and report "NOT reproduced" (exit 1).
    ['a negative firing point', () => variant('at-neg.json', (f) => (f.plan[1].at = -3)), /: plan\[1\]\.at should be ≥ 0, not -3$/m],
    [
      'a fractional firing point',
      () => variant('at-frac.json', (f) => (f.plan[1].at = 2.5)),
      /: plan\[1\]\.at should be a whole number, not 2\.5$/m,
    ],
    [
      'a firing point past any run',
      () => variant('at-huge.json', (f) => (f.plan[0].at = 1e300)),
      /: plan\[0\]\.at should be ≤ 9007199254740991, not 1e\+300$/m,
    ],
    ['an empty workload', () => variant('no-calls.json', (f) => (f.workload = [])), /: workload should not be empty$/m],
    [
      'a negative deadline',
      () => variant('deadline.json', (f) => (f.world.deadlineMs = -1)),
      /: world\.deadlineMs should be > 0, not -1$/m,
    ],
    [
      'an unknown workload method',
      () => variant('method.json', (f) => (f.workload[0].method = 'tools/run')),
      /: workload\[0\]\.method should be "tools\/call" or "tools\/list", not "tools\/run"$/m,
    ],
    [
      'an unknown knob value',
      () => variant('value.json', (f) => (f.combination.server.reinit = 'telepathy')),
      /unknown server\.reinit value 'telepathy'/,
    ],
    [
      'a policy that is not loaded',
      () => POLICY_ERROR,
      /unknown server\.reinit value 'throws-on-reinit' \(it was saved with --policies test\/fixtures\/policies\/throws\.ts\)/,
    ],
  ];
  for (const [name, file, message] of bad) {
    it(`${name}: one line on stderr, exit 2`, async () => {
      const r = await run('replay', file());
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(message);
      expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    });
  }

  it('takes exactly one file', async () => {
    expect((await run('replay')).stderr).toMatch(/replay takes one counterexample file, not 0/);
  });
});

function variantText(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}
