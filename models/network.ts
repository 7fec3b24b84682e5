// The load balancer and reverse proxy a request crosses: where faults act. One loop applies the
// rules (fault-rules.ts) of the faults that fire at a request, in plan order, as msw's handler loop
// asks each handler in turn. Both tiers call it: the model world (world/world.ts) and the msw fault
// network (wire/net/fault-network.ts), so built-in and registered faults write the same entries there.
// Stateless between requests, so plain functions rather than a machine.
import { faultKind, type BuiltinFaultKind, type FaultName } from './faults.ts';
import {
  BUILTIN_RULES,
  andThen,
  type FaultEffect,
  type FaultRule,
  type Maybe,
  type EndpointHooks,
  type RequestVerdict,
  type ResponseVerdict,
} from './fault-rules.ts';
import type { FaultDef } from './fault-def.ts';
import type { HttpRequest, HttpResponse } from './messages.ts';
import type { PolicyAdditions } from './additions.ts';
import type { KnobValues } from './policy-defs.ts';

const NO_KNOBS: KnobValues = Object.freeze({});

export type { FaultEffect, Maybe, EndpointHooks, RequestVerdict, ResponseVerdict } from './fault-rules.ts';
export type { FaultDef } from './fault-def.ts';

/** A registered fault as a rule; its response hook may read anything, so it reads the body. */
function registeredRule(def: FaultDef): FaultRule {
  const { request, response } = def;
  return {
    ...(request && {
      onRequest(fault: FaultName, v: RequestVerdict) {
        const r = request({ fault, request: v.request, knobs: v.knobs });
        if (r.request) v.request = r.request;
        if (r.answer && !v.answer) v.answer = r.answer;
        return { applied: r.applied, detail: r.detail };
      },
    }),
    ...(response && {
      readsBody: true,
      onResponse(fault: FaultName, v: ResponseVerdict) {
        const r = response({ fault, response: v.response, knobs: v.knobs });
        if (r.response) v.response = r.response;
        v.delayMs += r.delayMs ?? 0;
        if (r.lostAnswer) v.lostAnswer = true;
        return { applied: r.applied, detail: r.detail };
      },
    }),
  };
}

const registeredRules = new WeakMap<FaultDef, FaultRule>();

/** The rule of a fault: a built-in family's, else the one a policy module registered. */
export function ruleOf(fault: FaultName, additions: PolicyAdditions): FaultRule | undefined {
  const kind = faultKind(fault);
  if (Object.hasOwn(BUILTIN_RULES, kind)) return BUILTIN_RULES[kind as BuiltinFaultKind];
  const def = additions.faults.get(kind);
  if (!def) return undefined;
  let rule = registeredRules.get(def);
  if (!rule) registeredRules.set(def, (rule = registeredRule(def)));
  return rule;
}

/** What a tier gives the `before` loop: the hooks, and a way to keep a fault's entry ahead of what it caused. */
export interface BeforeSite extends EndpointHooks {
  /** Entries written from now on are held; the function returned writes the fault's entry, then them. */
  hold(): (effect: FaultEffect) => void;
}

/** The `before` faults of request n, in plan order: synchronous when the site's hooks are. */
export function fireBeforeFaults(
  faults: readonly FaultName[],
  request: HttpRequest,
  site: BeforeSite,
  additions: PolicyAdditions,
): Maybe<void> {
  // Nothing yet: synchronous until a hook answers with a promise.
  let done = undefined as Maybe<void>;
  for (const fault of faults) {
    const before = ruleOf(fault, additions)?.before;
    if (!before) continue;
    done = andThen(done, () => {
      const write = site.hold();
      return andThen(before(fault, request, site), (outcome) => write({ fault, ...outcome }));
    });
  }
  return done;
}

/** The request faults of request n, in plan order; `knobs`: the run's values of the knobs modules declared. */
export function applyRequestFaults(
  request: HttpRequest,
  faults: readonly FaultName[],
  additions: PolicyAdditions,
  knobs: KnobValues = NO_KNOBS,
): RequestVerdict {
  const v: RequestVerdict = { request, effects: [], knobs };
  for (const fault of faults) {
    const onRequest = ruleOf(fault, additions)?.onRequest;
    const outcome = onRequest?.(fault, v);
    if (outcome) v.effects.push({ fault, ...outcome });
  }
  return v;
}

export function applyResponseFaults(
  response: HttpResponse,
  faults: readonly FaultName[],
  from: ResponseVerdict['from'],
  additions: PolicyAdditions,
  knobs: KnobValues = NO_KNOBS,
): ResponseVerdict {
  const v: ResponseVerdict = { response, from, delayMs: 0, lostAnswer: false, effects: [], knobs };
  for (const fault of faults) {
    const onResponse = ruleOf(fault, additions)?.onResponse;
    if (onResponse) v.effects.push({ fault, ...onResponse(fault, v) });
  }
  return v;
}

export function isResponseFault(fault: FaultName, additions: PolicyAdditions): boolean {
  return ruleOf(fault, additions)?.onResponse !== undefined;
}

/** Some response fault here reads the body's events (the wire tier gathers an SSE stream for it). */
export function readsBody(faults: readonly FaultName[], additions: PolicyAdditions): boolean {
  return faults.some((f) => ruleOf(f, additions)?.readsBody === true);
}
