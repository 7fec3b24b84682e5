// The close-cancels probe (2026-07-28, issue 37 item 4): a call of the slow tool (--slow-call) whose
// response stream the client closes must be cancelled, its work never landing, as the read-only
// tool's answer shows. Its own file because it is the one probe that waits on the wall clock (a real
// tool's time, bounded to 10 s) and decides in steps: a close after the head, or before it where the
// server holds the head until the result, and `not tested` with the flag that would decide it.
import type { Revision } from '../../../models/policies.ts';
import type { AuditVerdict } from '../../core/audit-verdict.ts';
import type { WireServerSpec } from '../../wire/setup.ts';
import { realSleep } from '../../wire/protocol/real-timers.ts';
import { WallTime } from '../../wire/protocol/wall-time.ts';
import { describeAnswer, type ProbeAnswer } from './probe-client.ts';
import { specOnly, withClient, type ProbeOutcome } from './probe-kit.ts';
import { checkOf } from './spec-lens.ts';
import type { ToolChoice } from './tool-choice.ts';

const text = (a: ProbeAnswer) => JSON.stringify(a.message?.result?.content ?? null);

/** How long close-cancels waits for a closed call's work to land: twice a whole call's time, within these bounds (ms). */
const CLOSE_WAIT = { min: 200, max: 10_000 };

/**
 * close-cancels (2026-07-28): a call of the slow tool (`--slow-call`) whose SSE response stream the
 * client closes as soon as its head arrives must be cancelled, so its work never lands. Seen through
 * the read-only tool's answer: it must change after a call run to its end (the effect is visible),
 * must not have changed at the close (else the tool is faster than a close and nothing is tested),
 * and must not change while the closed call would have finished.
 */
export async function closeCancels(server: WireServerSpec, _revisions: readonly Revision[], tools?: ToolChoice): Promise<ProbeOutcome> {
  const id = '2026-07-28/close-is-cancellation';
  const untested = (evidence: string, verdict: AuditVerdict = 'not tested') => ({
    ...specOnly([checkOf(id, { verdict: 'not tested', evidence })]),
    verdict,
    why: verdict === 'not tested' ? evidence : `the fault-free calls already fail: ${evidence}`,
  });
  const slow = tools?.slow;
  if (!slow)
    return untested(
      'needs a slow tool with a visible effect: name it with --slow-call NAME --args JSON (its effect must show in the answer of the read-only --call tool)',
    );
  return withClient(server, async (c) => {
    let n = 1;
    const headers = (name: string) => c.modernHeaders('tools/call', name);
    const body = () => c.callBody(n++, 1, true, slow.tool);
    const read = async () => {
      const a = await c.send('POST', headers(slow.read.name), c.callBody(n++, 1, true, slow.read));
      return a.message?.result ? text(a) : null;
    };
    const before = await read();
    if (before === null) return untested(`the read-back tool ${slow.read.name} got no result`, 'broken without faults');
    const clock = new WallTime();
    const whole = await c.send('POST', headers(slow.tool.name), body());
    const took = clock.now;
    if (!whole.message?.result)
      return untested(`a call of ${slow.tool.name} run to its end got no result: ${describeAnswer(whole)}`, 'broken without faults');
    const after = await read();
    if (after === before)
      return untested(
        `a call of ${slow.tool.name} run to its end leaves ${slow.read.name}'s answer as it was (${after}): its effect is not visible (name a --slow-call tool whose effect the --call tool shows)`,
      );
    const started = clock.now;
    const head = await c.sendAndClose(headers(slow.tool.name), body());
    // A head that came only with the result (the server holds it until then): a close after it is too late.
    const held = clock.now - started >= 0.8 * took;
    const answered = describeAnswer({ ...head, message: null });
    if (head.status !== 200 || !(head.contentType ?? '').startsWith('text/event-stream'))
      return untested(`${slow.tool.name} was answered ${answered}: no SSE response stream to close`);
    const atClose = await read();
    if (atClose === after)
      return judgeClose(id, atClose, took, read, `a ${slow.tool.name} call's stream (${answered}) closed as its head arrived`);
    if (!held)
      return untested(
        `${slow.read.name} already showed the closed call's effect right after the close (${atClose}): the tool finishes before a close reaches it; name a slower one`,
      );
    // The head was held until the result: close the next call before its head, halfway through a whole call's time.
    await c.sendAndAbort(headers(slow.tool.name), body(), Math.max(1, Math.round(took / 2)));
    const atAbort = await read();
    if (atAbort !== atClose)
      return untested(
        `the server holds the response head until the result, and ${slow.read.name} showed the call's effect right after a close before the head (${atAbort}): the tool finishes before a close reaches it; name a slower one`,
      );
    return judgeClose(
      id,
      atAbort,
      took,
      read,
      `the server holds the head until the result: a ${slow.tool.name} call closed before its head, halfway through a whole call's time`,
    );
  });
}

/** After a close: wait twice a whole call's time, and see whether the closed call's work landed. */
async function judgeClose(
  id: string,
  atClose: string | null,
  took: number,
  read: () => Promise<string | null>,
  closed: string,
): Promise<ProbeOutcome> {
  await realSleep(Math.min(CLOSE_WAIT.max, Math.max(CLOSE_WAIT.min, 2 * took)));
  const later = await read();
  const what = `${closed}; the read-back answered ${atClose} at the close and ${later} after twice a whole call's time`;
  return specOnly([
    later === atClose
      ? checkOf(id, { verdict: 'conforms', evidence: `${what}: the closed call's work did not land` })
      : checkOf(id, { verdict: 'violates', evidence: `${what}: the work of the closed request landed after the close` }),
  ]);
}
