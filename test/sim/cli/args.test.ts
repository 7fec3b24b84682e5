// Options as node:util's parseArgs reads them, checked in our words: each mistake is one line on
// stderr naming the valid options, exit 2 (through the CLI, as a user types it).
import { describe, expect, it } from 'vitest';
import { itRejects, run } from './run.ts';

describe('command-line options', () => {
  itRejects([
    ['an unknown long option', ['list', '--jsn'], /^mcp-faultsim: list: unknown option '--jsn' \(valid: --json, --policies, --help\)$/m],
    [
      'an unknown option with a value',
      ['list', '--format=md'],
      /^mcp-faultsim: list: unknown option '--format' \(valid: --json, --policies, --help\)$/m,
    ],
    ['a short option (there are none)', ['list', '-j'], /^mcp-faultsim: list: unknown option '-j' \(valid: --json, --policies, --help\)$/m],
    ['a switch given a value', ['list', '--json=yes'], /^mcp-faultsim: list: --json takes no value$/m],
    ['an option missing its value', ['list', '--policies'], /^mcp-faultsim: list: --policies needs a value \(FILE,…\)$/m],
    [
      'a value that starts with a dash reaches the range check',
      ['check', '--runs', '-3'],
      /--runs must be a whole number from 1 to 1000000, not '-3'/,
    ],
    ['after --, an option is an argument', ['list', '--', '--json'], /^mcp-faultsim: list: unexpected argument '--json'$/m],
  ]);

  it('--name=value and --name value are the same', async () => {
    const a = await run('list', '--json', '--policies=examples/streaming-floor.ts');
    const b = await run('list', '--json', '--policies', 'examples/streaming-floor.ts');
    expect(a.code, a.stderr).toBe(0);
    expect(a.stdout).toContain('streaming-floor');
    expect(b.stdout).toBe(a.stdout);
  });
});
