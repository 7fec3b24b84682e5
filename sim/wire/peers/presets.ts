// The wire tier's SDK presets as data: their names, what each is, the revisions the v2 ones speak.
// Apart from the SDK adapters that implement them, so that a command can parse and explain
// `--client sdk2` or `--server sdk-json` without loading the SDKs (most of its start-up time).

/** The official SDK v1 server presets (wire/peers/sdk-server.ts). */
export const SDK_SERVER_PRESETS = {
  'sdk-sse': { enableJsonResponse: false, describe: 'official SDK server, tools/call answered with SSE streams (its default)' },
  'sdk-json': { enableJsonResponse: true, describe: 'official SDK server with enableJsonResponse: tools/call answered with one JSON body' },
} as const;
export type SdkServerPreset = keyof typeof SDK_SERVER_PRESETS;

/** The official SDK v2 server presets (wire/peers/sdk2-server.ts). */
export const SDK2_SERVER_PRESETS = {
  'sdk2-sse': {
    json: false,
    describe: 'official SDK v2 server, every answer an SSE stream (responseMode sse; legacy: enableJsonResponse off)',
  },
  'sdk2-json': {
    json: true,
    describe: 'official SDK v2 server, one JSON body per answer, progress dropped (responseMode json; legacy: enableJsonResponse)',
  },
} as const;
export type Sdk2ServerPreset = keyof typeof SDK2_SERVER_PRESETS;

/** The revisions a v2 server preset can serve (`server.protocol`'s values). */
export const SDK2_SERVER_PROTOCOLS = ['2025-11-25', '2026-07-28', 'dual'] as const;
export type Sdk2ServerProtocol = (typeof SDK2_SERVER_PROTOCOLS)[number];

/** The revisions the v2 client preset can speak (`client.protocol`'s values). */
export const SDK2_CLIENT_PROTOCOLS = ['2025-11-25', '2026-07-28', 'negotiate'] as const;
export type Sdk2ClientProtocol = (typeof SDK2_CLIENT_PROTOCOLS)[number];
