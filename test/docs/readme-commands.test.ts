// The README's commands run as written: every line of its fenced `sh` blocks (continuation lines
// joined) is either run here, from the repository root exactly as a reader types it, and must exit
// with the status the README gives it, or listed below with the reason it is not run. A command the
// README gains that is in neither list fails the test, and so does a listed one the README lost.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const ROOT = new URL('../..', import.meta.url).pathname;

/** Run, with the exit status the README says they end with (1: a property violated, as documented). */
const RUN: Record<string, number> = {
  'npx mcp-faultsim list': 0,
  'npx mcp-faultsim check --server reinit=honor-last,streaming=negotiated,advertise=static --client reconnect=replay-mutable,parser=pinned,guards= --faults http-502,config-reset': 1,
  'npx mcp-faultsim check --client parser=adaptive,guards=probe --runs 50 --json': 1,
  'npx mcp-faultsim explore --faults http-502,config-reset --depth 3': 1,
  'npx mcp-faultsim replay test/corpus/no-silent-empty--defaults--22927e0718.json': 0,
  'npx mcp-faultsim audit --server sdk2-sse,protocol=2026-07-28 --only cut-reissue-once': 0,
};

/** Not run here, and why. */
const NOT_RUN: Record<string, string> = {
  'npm ci && npm run compare': 'npm ci replaces node_modules under the running suite; compare is test/sim/cli/compare.test.ts',
  'npm test': 'the whole suite, this test among it',
  "npx mcp-faultsim compare --server 'reinit=honor-last|pin-first|reject'":
    'a comparison with its mitigation searches (seconds of CPU on two threads) writing out/; test/sim/cli/compare.test.ts runs cuts',
  "npx mcp-faultsim compare --matrix full --server reinit=reject --client 'reconnect=new-session,guards=|compare-init'":
    'a comparison of the full matrix cut (tens of seconds of CPU) writing out/; test/sim/cli/compare.test.ts runs cuts',
  'npx mcp-faultsim audit --server sdk-sse': 'thirteen scenarios on the wire; test/sim/audit runs this audit',
  "npx mcp-faultsim audit --client-cmd 'node examples/clients/ts-client.mjs'":
    'a client process per run on the wall clock (about half a minute); test/sim/audit runs client audits',
  'npx mcp-faultsim check --wire --client sdk --server sdk-sse --faults stream-cut,http-502 --runs 20':
    'twenty wire runs with shrinking (about ten seconds); test/sim/wire runs these presets',
  'npm run check:deps': 'npm test runs it before the tests',
  'npm run check:cycles': 'test/tooling/rules.test.ts runs it on a planted cycle; npm test runs it on the tree (in check:deps)',
  'npx tsc -p .': 'npm test runs it before the tests',
  'npx biome check .': 'npm test runs it before the tests',
  'npx vitest run test/sim/search': 'tests the suite runs anyway',
};

/** Each command of the README's ```sh blocks: comments dropped, `\`-continued lines joined. */
function readmeCommands(markdown: string): string[] {
  const commands: string[] = [];
  for (const block of markdown.matchAll(/^```sh\n([\s\S]*?)^```$/gm)) {
    const joined = block[1]!.replace(/\\\n\s*/g, '');
    for (const line of joined.split('\n')) {
      const command = line.replace(/\s+#.*$/, '').trim();
      if (command && !command.startsWith('#')) commands.push(command);
    }
  }
  return commands;
}

const commands = readmeCommands(readFileSync(`${ROOT}README.md`, 'utf8'));

describe('the README commands', () => {
  it('are each run here or listed with why not, and the lists name only commands the README has', () => {
    expect(commands.length).toBeGreaterThan(5);
    expect(commands.filter((c) => !(c in RUN) && !(c in NOT_RUN))).toEqual([]);
    expect([...Object.keys(RUN), ...Object.keys(NOT_RUN)].filter((c) => !commands.includes(c))).toEqual([]);
  });

  it.each(Object.entries(RUN))('%s exits %i', (command, status) => {
    const r = spawnSync('sh', ['-c', command], { cwd: ROOT, encoding: 'utf8', maxBuffer: 1 << 26 });
    expect(r.stderr).not.toMatch(/^mcp-faultsim\b.*: /m); // no bad-input line
    expect(r.status, r.stderr.slice(-2000)).toBe(status);
    expect(r.stdout.length).toBeGreaterThan(0);
  });
});
