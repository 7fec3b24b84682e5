// Each entry of examples/clients/clients.json declares its library's default tools/call timeout
// (`defaultTimeoutMs`, null for none): the library verdict runs the library with no timeout given and
// prints that declaration beside a call that never settled. Checked here against the installed code
// the harness loads: the SDK constant of the copy the wrapper resolves (imported, not copied), and
// the wrapper's own source where it adds or withholds a timeout (the line that decides, matched).
// A library not installed FAILS with the reason (npm ci --prefix examples/clients; the Python venv).
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readManifest } from '../../../sim/audit/client/manifest.ts';
import { ROOT } from '../../sim/cli/run.ts';

const MODULES = join(ROOT, 'examples/clients/node_modules');
const manifest = readManifest(join(ROOT, 'examples/clients/clients.json'));
const declared = (name: string) => manifest.find((c) => c.name === name)?.defaultTimeoutMs;

function installed(path: string): string {
  const full = join(MODULES, path);
  if (!existsSync(full)) throw new Error(`${full} is missing: run npm ci --prefix examples/clients`);
  return full;
}
const source = (path: string) => readFileSync(installed(path), 'utf8');

/** DEFAULT_REQUEST_TIMEOUT_MSEC of the SDK copy at `path` (a module that exports it). */
async function sdkDefault(path: string): Promise<number> {
  const m = (await import(pathToFileURL(installed(path)).href)) as { DEFAULT_REQUEST_TIMEOUT_MSEC?: number };
  return m.DEFAULT_REQUEST_TIMEOUT_MSEC ?? Number.NaN;
}

const V2 = '@modelcontextprotocol/client/dist/index.mjs';
const V1 = '@modelcontextprotocol/sdk/dist/esm/shared/protocol.js';

/** Per entry: what the installed code says the default is. */
const CHECKS: Record<string, () => Promise<number | null>> = {
  'sdk-v2': () => sdkDefault(V2),
  'sdk-v1': () => sdkDefault(V1),
  langchain: async () => {
    // The adapter passes a timeout only when one is configured; unset, SDK v1's default (the hoisted copy).
    expect(source('@langchain/mcp-adapters/dist/tools.js')).toMatch(/numericTimeout \? \{ timeout: numericTimeout \} : \{\}/);
    expect(existsSync(join(MODULES, '@langchain/mcp-adapters/node_modules/@modelcontextprotocol/sdk'))).toBe(false);
    return sdkDefault(V1);
  },
  mastra: async () => {
    expect(source('@mastra/mcp/dist/index.js')).toMatch(/this\.defaultTimeout = args\.timeout \?\? DEFAULT_REQUEST_TIMEOUT_MSEC/);
    return sdkDefault(`@mastra/mcp/node_modules/${V2}`);
  },
  'openai-agents': async () => {
    expect(source('@openai/agents-core/dist/shims/mcp-server/node.mjs')).toMatch(
      /this\.timeout = params\.timeout \?\? DEFAULT_REQUEST_TIMEOUT_MSEC/,
    );
    return sdkDefault(V2);
  },
  supergateway: async () => {
    // Every forwarded request goes through the nested SDK v1 with no options.
    expect(source('supergateway/dist/gateways/streamableHttpToStdio.js')).toMatch(/mcpClient\.request\(req, z\.any\(\)\)/);
    return sdkDefault(`supergateway/node_modules/${V1}`);
  },
  'inspector-cli': async () => {
    // The CLI builds its client without a timeout; getRequestOptions then sets none: SDK 2.3.1's default.
    expect(source('@modelcontextprotocol/inspector/clients/cli/build/index.js')).toMatch(/this\.requestTimeout = options\.timeout;/);
    return sdkDefault(`@modelcontextprotocol/inspector/node_modules/${V2}`);
  },
  'ai-sdk': async () => {
    const dist = source('@ai-sdk/mcp/dist/index.js');
    // No timeout unless one is given, and no retry of a tool call.
    expect(dist).toMatch(
      /function getEffectiveTimeout\(\{ timeout, maxTotalTimeout \}\) \{\s*if \(timeout == null\) return maxTotalTimeout;/,
    );
    expect(dist).toMatch(/DEFAULT_MAX_TOOL_CALL_RETRIES = 0;/);
    return null;
  },
  'mcp-remote': async () => {
    // Messages are forwarded with the transport's send (no Protocol.request, so no SDK request timer);
    // only initialize has a timer of its own.
    const dist = installed('mcp-remote/dist');
    const text = readdirSync(dist)
      .filter((f) => f.endsWith('.js'))
      .map((f) => readFileSync(join(dist, f), 'utf8'))
      .join('\n');
    expect(text).toMatch(/transportToServer\.send\(/);
    expect(text).toMatch(/var INITIALIZE_TIMEOUT_MS = /);
    return null;
  },
  'python-mcp': async () => {
    const python = join(ROOT, '.venv-mcp/bin/python');
    if (!existsSync(python)) throw new Error(`${python} is missing: run bash .ci/python-venv.sh`);
    const out = execFileSync(python, [
      '-c',
      'import inspect,dataclasses,mcp.client.client as c; from mcp.client.session import ClientSession;' +
        "print(inspect.signature(ClientSession.__init__).parameters['read_timeout_seconds'].default," +
        "[f.default for f in dataclasses.fields(c.Client) if f.name=='read_timeout_seconds'])",
    ]).toString();
    expect(out.trim()).toBe('None [None]');
    return null;
  },
};

describe("each manifest entry's declared default request timeout", () => {
  it('covers every entry, and no more', () => {
    expect(Object.keys(CHECKS).sort()).toEqual(manifest.map((c) => c.name).sort());
  });

  for (const name of Object.keys(CHECKS))
    it(`${name}: the declaration is what the installed library does`, async () => {
      expect(await CHECKS[name]!()).toBe(declared(name));
    }, 30_000);
});
