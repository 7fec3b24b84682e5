// Which real tools a model call uses: the model server takes any name, a real server needs its own.
// Plain data, apart from the JSON-RPC translation (json-rpc.ts), so that a command that only parses
// `--tools` never loads the SDK that translation imports.

/** Which real tool a model call uses: the model server takes any name; real servers need theirs. */
export interface ToolSpec {
  name: string;
  /** Arguments for workload call `callId`. */
  args(callId: number): Record<string, unknown>;
}

export interface ToolMap {
  /** A call that asks for no progress. */
  plain: ToolSpec;
  /** A call that asks for progress (and record 003's probe, which must exercise the progress path). */
  progress: ToolSpec;
}

const noArgs = () => ({});
/** The tools of the model server and of the in-process SDK servers. */
export const FAULTSIM_TOOLS: ToolMap = { plain: { name: 'work', args: noArgs }, progress: { name: 'progress', args: noArgs } };
/** The tools of @modelcontextprotocol/server-everything. */
export const EVERYTHING_TOOLS: ToolMap = {
  plain: { name: 'echo', args: (callId) => ({ message: `call ${callId}` }) },
  progress: { name: 'trigger-long-running-operation', args: () => ({ duration: 0.05, steps: 2 }) },
};
/** The tool sets a real server may be asked for by name (`--tools`), the first the default. */
export const TOOL_PRESETS = { everything: EVERYTHING_TOOLS, faultsim: FAULTSIM_TOOLS } as const;
export type ToolPresetName = keyof typeof TOOL_PRESETS;
