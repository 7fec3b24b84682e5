// A server re-init policy of your own: adopt what a re-initialize asks for, but never drop the
// streaming that the session's first handshake granted (record 000's "configured floor").
//   npx mcp-faultsim compare --policies examples/streaming-floor.ts
import { definePolicies, SERVER_CAPABILITIES } from 'mcp-faultsim';

const STREAMING = ['tools.streaming', 'streaming-progress'];

export default definePolicies({
  server: {
    reinit: {
      'streaming-floor': {
        describe: 'adopt the new capability set, but keep the streaming the first handshake granted',
        decide: ({ session, clientCaps }) => ({
          kind: 'adopt',
          caps: [...clientCaps.filter((c) => SERVER_CAPABILITIES.includes(c)), ...session.firstCaps.filter((c) => STREAMING.includes(c))],
        }),
      },
    },
  },
  // Record 000's vulnerable cell with this policy in place of honor-last, beside the built-ins.
  cells: [{ name: 'server.reinit=streaming-floor', record: '000', server: { reinit: 'streaming-floor' } }],
});
