// The shape of a policy module's default export, as a zod schema: which parts it may have, each
// definition's hooks and descriptions, the cells it adds. A mistake is one line naming where it is
// (`server.reinit.no-decide.decide should be a function, not missing`). What needs the registries
// (a name already taken, a knob value or fault that does not exist) is checked where the module is
// registered (plugins/policy-module.ts, plugins/cells.ts).
import { z } from 'zod';
import { kindOf, strictObject } from '../core/schema-issue.ts';
import { PROPERTY_FAMILIES } from '../../properties/fold.ts';

/** A hook. Its arguments and answer are the sandbox's to check, at each call (plugins/sandbox.ts). */
// biome-ignore lint/suspicious/noExplicitAny: a designer's hook; its input is typed by PolicyModule, its answer checked by the sandbox
type Hook = (input: any) => unknown;
const hook = z.custom<Hook>((v) => typeof v === 'function', { error: (issue) => `should be a function, not ${kindOf(issue.input)}` });

/** Definitions by name: `{ 'my-policy': { describe, … } }`. */
function named<T extends z.ZodType>(definition: T) {
  return z.record(z.string().regex(/^[a-z][a-z0-9-]*$/, { error: "use lower-case letters, digits and '-'" }), definition);
}

/** A knob of the module's own: its values (names the CLI can write: no ',', '|', '=' or '+'), its
 *  default among them, what it configures, and what each value does. */
const knobValue = z.string().regex(/^[a-z0-9][a-z0-9.-]*$/, { error: "use lower-case letters, digits, '.' and '-'" });
const knob = strictObject({
  values: z.array(knobValue).min(1),
  default: z.string(),
  meaning: z.string(),
  describe: z.record(z.string(), z.string()),
}).superRefine((k, ctx) => {
  if (new Set(k.values).size !== k.values.length) ctx.addIssue({ code: 'custom', path: ['values'], message: 'lists a value twice' });
  if (!k.values.includes(k.default))
    ctx.addIssue({ code: 'custom', path: ['default'], message: `should be one of its values (${k.values.join(', ')})` });
  const undescribed = k.values.find((v) => typeof k.describe[v] !== 'string');
  if (undescribed !== undefined)
    ctx.addIssue({ code: 'custom', path: ['describe', undescribed], message: 'should say what the value does' });
  const stray = Object.keys(k.describe).find((v) => !k.values.includes(v));
  if (stray !== undefined) ctx.addIssue({ code: 'custom', path: ['describe', stray], message: 'is not one of its values' });
});

const reinit = strictObject({ describe: z.string(), decide: hook, opening: hook.optional() });
const reconnect = strictObject({ describe: z.string(), afterFailure: hook, handshake: hook });
const guard = strictObject({ describe: z.string(), checkResponse: hook.optional(), checkReinitialize: hook.optional() });
const fault = strictObject({
  describe: z.string(),
  instances: z.array(z.string()).min(1).optional(),
  request: hook.optional(),
  response: hook.optional(),
});
/** A property: the simple whole-history `check`, or a fold (`init`, `step`, `verdict`, `key`), whose
 *  states exploration can merge. One object, so that a mistake names the key it is about. */
const FOLD = ['init', 'step', 'verdict', 'key'] as const;
const property = strictObject({
  holdsWhen: z.string(),
  /** silent (the agent is never told), invariant (a state the protocol promises) or recovery (the
   *  session heals); default invariant. */
  family: z.enum(PROPERTY_FAMILIES).optional(),
  /** The short head the terminal prints over its column (default: the name). */
  column: z
    .string()
    .regex(/^\S{1,12}$/, { error: 'should be 1 to 12 characters, no spaces' })
    .optional(),
  check: hook.optional(),
  init: hook.optional(),
  step: hook.optional(),
  verdict: hook.optional(),
  key: hook.optional(),
}).superRefine((p, ctx) => {
  const fold = FOLD.filter((k) => p[k] !== undefined);
  if (p.check !== undefined && fold.length > 0)
    ctx.addIssue({ code: 'custom', message: `takes check or a fold (${FOLD.join(', ')}), not both` });
  else if (p.check === undefined && fold.length === 0)
    ctx.addIssue({ code: 'custom', message: `needs check, or a fold: ${FOLD.join(', ')}` });
  else if (p.check === undefined) {
    const missing = FOLD.find((k) => p[k] === undefined);
    if (missing)
      ctx.addIssue({
        code: 'custom',
        path: [missing],
        message: 'should be a function, not missing (a fold needs init, step, verdict and key)',
      });
  }
});

export const cellSchema = strictObject({
  name: z.string().refine((s) => s.trim() !== '', { error: 'should not be blank' }),
  record: z.enum(['000', '003']).optional(),
  server: z.record(z.string(), z.string()).optional(),
  client: z
    .record(z.string(), z.union([z.string(), z.array(z.string())], { error: 'should be a knob value (guards: a list of them)' }))
    .optional(),
  faults: z.array(z.string()).optional(),
});

export const policyModuleSchema = strictObject({
  server: strictObject({ knobs: named(knob).optional(), reinit: named(reinit).optional() }).optional(),
  client: strictObject({
    knobs: named(knob).optional(),
    reconnect: named(reconnect).optional(),
    guards: named(guard).optional(),
  }).optional(),
  faults: named(fault).optional(),
  properties: named(property).optional(),
  cells: z.array(cellSchema).optional(),
});

export type CellShape = z.output<typeof cellSchema>;
