// Claims of README.md and docs/ that the code decides, checked against it: every dependency pinned
// (docs/design.md says so), counts of knobs and transitions (from the vocabulary's tables and the
// statecharts' definitions), the glossary's class and verdict words (the code's own), no page citing
// a file the reader cannot open, and the pages the README promises linked from it.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { clientMachine } from '../../models/client.ts';
import { KNOB_TABLES } from '../../models/policies.ts';
import { serverMachine } from '../../models/server.ts';
import { VERDICTS } from '../../sim/core/audit-verdict.ts';
import { CELL_CLASSES } from '../../sim/core/cell-class.ts';
import { catalogOf } from '../../sim/world/engine/transitions.ts';

const ROOT = new URL('../..', import.meta.url).pathname;
const read = (page: string) => readFileSync(`${ROOT}${page}`, 'utf8');
const PAGES = ['README.md', ...readdirSync(`${ROOT}docs`).map((f) => `docs/${f}`)];
const WORDS = ['one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve'];
const number = (s: string) => (WORDS.includes(s.toLowerCase()) ? WORDS.indexOf(s.toLowerCase()) + 1 : Number(s));

/** The library's arbitraries are fast-check values a user's project passes to its own fast-check: a
 *  range lets npm share one copy (pinned, a user's newer copy makes two and the types part ways; the
 *  packed-package test type-checks it). The lock still fixes what this repository installs. */
const SHARED_WITH_USERS = ['fast-check', 'pure-rand'];

describe('the docs’ claims about the code', () => {
  it('pins every dependency to an exact version, each lock file committed (docs/design.md)', () => {
    expect(read('docs/design.md')).toContain('is pinned to an exact version');
    const tracked = execFileSync('git', ['ls-files'], { cwd: ROOT, encoding: 'utf8' }).split('\n');
    for (const dir of ['', 'examples/clients/', 'examples/servers/']) {
      const pkg = JSON.parse(read(`${dir}package.json`)) as Record<string, Record<string, string> | undefined>;
      for (const field of ['dependencies', 'devDependencies', 'optionalDependencies']) {
        for (const [name, version] of Object.entries(pkg[field] ?? {}))
          if (dir !== '' || field !== 'dependencies' || !SHARED_WITH_USERS.includes(name))
            expect(version, `${dir}package.json ${field} ${name}`).toMatch(/^\d+\.\d+\.\d+(-[\w.]+)?$/);
          else expect(version, `${name}: a caret range from the locked version`).toMatch(/^\^\d+\.\d+\.\d+$/);
      }
      expect(tracked, `${dir}package-lock.json committed`).toContain(`${dir}package-lock.json`);
    }
  });

  it('counts the knobs and the transitions as the code has them', () => {
    const knobs = Object.keys(KNOB_TABLES.server).length + Object.keys(KNOB_TABLES.client).length;
    const transitions = [clientMachine, serverMachine].map((m) => catalogOf(m).transitions.length);
    const total = transitions[0]! + transitions[1]!;
    for (const page of PAGES) {
      const text = read(page);
      for (const m of text.matchAll(/\b(\w+) knobs\b/g))
        if (/^\d+$|^[a-z]+$/i.test(m[1]!) && !Number.isNaN(number(m[1]!))) expect(number(m[1]!), `${page}: "${m[0]}"`).toBe(knobs);
      for (const m of text.matchAll(/\b(\d+) (?:of the machines' )?transitions\b/g))
        expect([total, ...transitions], `${page}: "${m[0]}"`).toContain(Number(m[1]));
    }
    expect(total).toBeGreaterThan(70);
  });

  it('defines each class and audit verdict in the glossary with the code’s own words', () => {
    const glossary = read('docs/glossary.md');
    for (const k of CELL_CLASSES) expect(glossary, k).toContain(`**${k}**`);
    for (const v of ['stuck']) expect(VERDICTS as readonly string[]).toContain(v);
    // The HTML and the docs never rename a class.
    for (const page of PAGES) expect(read(page), page).not.toMatch(/loud, stuck/);
  });

  it('cites no file the reader cannot open, and links the records and the glossary from the README', () => {
    for (const page of PAGES) {
      const text = read(page);
      expect(text, page).not.toMatch(/shared\/seeds|\/work\/|Decision Boundary/);
      for (const m of text.matchAll(/\]\(((?:\.\.\/|docs\/)?[\w./-]+\.md)(?:#[\w-]+)?\)/g)) {
        const target = page.startsWith('docs/') && !m[1]!.startsWith('../') ? `docs/${m[1]}` : m[1]!.replace(/^\.\.\//, '');
        expect(existsSync(`${ROOT}${target}`), `${page} links ${m[1]}`).toBe(true);
      }
    }
    const readme = read('README.md');
    expect(readme).toContain('(docs/records.md)');
    expect(readme).toContain('(docs/glossary.md)');
  });
});
