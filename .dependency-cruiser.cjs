// The architecture's arrows, checked by `npm run check:deps`. Data flows one way (plan → world →
// history → oracles → verdict → search → finding → report); each folder is one stage and may import
// only from the stages below it. A `type-only` import (`import type …`) is erased at run time, so
// where a rule allows types it allows exactly those.
/** @type {import('dependency-cruiser').IConfiguration} */

// Folders whose code is not part of the pipeline: tests, the benchmark and example policy modules
// may import anything (they exercise the layers from outside).
const OUTSIDE = '^(test|bench|examples)/|\\.test\\.ts$';

/**
 * The stages, lowest first: a stage never imports one above it, not even its types (`import type`
 * is erased at run time, but it still ties a lower stage to a higher one's vocabulary). Within that
 * order a stage imports only its own folder and the stages listed in `may`; from the stages in
 * `types` it takes types only (a narrower rule, never a way up).
 */
const LAYERS = [
  { name: 'models', may: [], comment: 'models/ is the protocol as designers describe it: it imports nothing of the project' },
  {
    name: 'sim/core',
    may: ['models'],
    comment: 'core/ is shared data (history, plan, workload, cells); it sits on models/, the floor below it, and nothing else',
  },
  {
    name: 'properties',
    may: ['sim/core'],
    types: ['models'],
    comment: 'properties/ judges a history: it reads core/ only (types of models/ allowed; no model logic)',
  },
  {
    name: 'sim/world',
    may: ['models', 'sim/core'],
    comment: 'world/ runs the models on a virtual clock; it knows nothing of oracles or search',
  },
  {
    name: 'sim/plugins',
    may: ['models', 'sim/core', 'properties', 'sim/world'],
    comment:
      "plugins/ loads policy modules into registry values (the cells a module adds are a core/ type), and resolves a run's config " +
      '(run-config.ts: the registry, the world options, seed, runs, properties)',
  },
  {
    name: 'sim/search',
    may: ['models', 'sim/core', 'sim/world', 'properties', 'sim/plugins'],
    comment: 'search/ drives worlds and judges them (its pool workers load policy modules through plugins/); it never reports',
  },
  {
    name: 'sim/compare',
    may: ['models', 'sim/core', 'sim/world', 'properties', 'sim/plugins', 'sim/search'],
    comment: "compare/ runs the matrix through search/, under the run's config (plugins/run-config.ts)",
  },
  {
    name: 'sim/corpus',
    may: ['models', 'sim/core', 'sim/world', 'properties', 'sim/plugins', 'sim/search', 'sim/compare'],
    comment: 'corpus/ saves and replays findings',
  },
  {
    name: 'sim/wire',
    may: ['models', 'sim/core', 'sim/world', 'properties', 'sim/plugins', 'sim/search', 'sim/compare'],
    comment: 'wire/ drives real code through the fault network',
  },
  {
    name: 'sim/audit',
    may: ['models', 'sim/core', 'sim/world', 'properties', 'sim/plugins', 'sim/search', 'sim/compare', 'sim/wire'],
    comment: 'audit/ runs named scenarios against real servers and clients through wire/',
  },
  {
    name: 'reports',
    may: ['models', 'sim/core', 'properties'],
    types: ['sim/world', 'sim/search', 'sim/compare', 'sim/wire', 'sim/audit'],
    comment: 'reports/ renders result data and never runs the simulation (types of world/, search/, compare/, wire/, audit/ only)',
  },
  {
    name: 'sim/cli',
    may: [
      'models',
      'sim/core',
      'properties',
      'sim/world',
      'sim/plugins',
      'sim/search',
      'sim/compare',
      'sim/corpus',
      'sim/wire',
      'sim/audit',
      'reports',
    ],
    comment: 'cli/ is the outermost stage: it parses the command line, runs the stages and writes the reports',
  },
];
const STAGES = LAYERS.map((l) => l.name);

/**
 * The folders inside a stage, in the same way: `order` lowest first, the stage's own top-level
 * files last (they import any of its folders, none of its folders imports them). `apart`: folders
 * that never import each other, and the stage's top-level files import neither.
 */
const FOLDERS = [
  {
    stage: 'sim/wire',
    order: ['protocol', 'net', 'process', 'peers'],
    comment:
      'wire/protocol (JSON-RPC, SSE, clocks, history) < net (the fault network and what sits behind it) < process (spawned servers ' +
      'and clients, loopback fetch) < peers (the SDK and model ends) < wire/ itself (the world, setup and checks that put them together)',
  },
  {
    stage: 'sim/audit',
    apart: ['server', 'client'],
    comment: 'audit/server (the server audit) and audit/client (the client audit) share only what sits in audit/ itself',
  },
];

// Violations that exist today (other engineers are removing them): reported as ignored instead of
// failing, each by its modules. The lead empties these lists; a new cycle or arrow fails at once.
// Every cycle below runs through at least one `import type` except the first (a value cycle).
const KNOWN_CYCLES = [];
/** [from, to, rule] */
const KNOWN_ARROWS = [];
const KNOWN = [
  ...KNOWN_CYCLES.map((modules) => ({
    type: 'cycle',
    from: modules[0],
    to: modules[1],
    rule: { name: 'no-circular', severity: 'error' },
    cycle: modules.map((name) => ({ name, dependencyTypes: [] })),
  })),
  ...KNOWN_ARROWS.map(([from, to, name]) => ({ type: 'dependency', from, to, rule: { name, severity: 'error' } })),
];

// Each stage gets up to three rules: nothing above it (values and types alike), of the stages below
// only those it `may` import, and of its `types` stages no values.
const forbidden = [];
for (const [i, l] of LAYERS.entries()) {
  const below = STAGES.slice(0, i);
  for (const f of [...l.may, ...(l.types ?? [])]) {
    if (!below.includes(f)) throw new Error(`.dependency-cruiser.cjs: ${l.name} may import ${f}, which is not below it`);
  }
  const above = STAGES.slice(i + 1);
  if (above.length) {
    forbidden.push({
      name: `stage-order-${l.name}`,
      comment: `${l.name}/ is below ${above.map((f) => `${f}/`).join(', ')}: it imports none of them, not even a type`,
      severity: 'error',
      from: { path: `^${l.name}/`, pathNot: OUTSIDE },
      to: { path: `^(${above.join('|')})/|^(index|vitest)\\.ts$` },
    });
  }
  const typesOnly = l.types ?? [];
  const notAllowed = below.filter((f) => !l.may.includes(f) && !typesOnly.includes(f));
  if (notAllowed.length) {
    forbidden.push({
      name: `layer-${l.name}`,
      comment: l.comment,
      severity: 'error',
      from: { path: `^${l.name}/`, pathNot: OUTSIDE },
      to: { path: `^(${notAllowed.join('|')})/` },
    });
  }
  if (typesOnly.length) {
    forbidden.push({
      name: `layer-${l.name}-types-only`,
      comment: `${l.comment} (a value import of ${typesOnly.map((f) => `${f}/`).join(', ')} is forbidden)`,
      severity: 'error',
      from: { path: `^${l.name}/`, pathNot: OUTSIDE },
      to: { path: `^(${typesOnly.join('|')})/`, dependencyTypesNot: ['type-only'] },
    });
  }
}
for (const s of FOLDERS) {
  const top = `^${s.stage}/[^/]+$`;
  for (const [i, folder] of (s.order ?? []).entries()) {
    const above = s.order.slice(i + 1);
    forbidden.push({
      name: `folder-order-${s.stage}/${folder}`,
      comment: s.comment,
      severity: 'error',
      from: { path: `^${s.stage}/${folder}/`, pathNot: OUTSIDE },
      to: { path: above.length ? `^${s.stage}/(${above.join('|')})/|${top}` : top },
    });
  }
  for (const folder of s.apart ?? []) {
    const others = s.apart.filter((f) => f !== folder);
    forbidden.push({
      name: `folder-apart-${s.stage}/${folder}`,
      comment: s.comment,
      severity: 'error',
      from: { path: `^${s.stage}/${folder}/`, pathNot: OUTSIDE },
      to: { path: `^${s.stage}/(${others.join('|')})/` },
    });
  }
  if (s.apart) {
    forbidden.push({
      name: `folder-apart-${s.stage}`,
      comment: s.comment,
      severity: 'error',
      from: { path: top, pathNot: OUTSIDE },
      to: { path: `^${s.stage}/(${s.apart.join('|')})/` },
    });
  }
}
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'An import cycle ties folders into one knot: a change anywhere in it can break all of it, and load order decides values.',
      severity: 'error',
      from: {},
      // A cycle only through `import type` edges is erased before anything runs: it decides no load order.
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
    ...forbidden,
    {
      name: 'only-cli-imports-reports',
      comment:
        'Rendering is the last stage: only the entries (the CLI, and vitest.ts whose helpers throw a report) and tests, the benchmark turn results into reports.',
      severity: 'error',
      from: { pathNot: `^(sim/cli|reports)/|^vitest\\.ts$|${OUTSIDE}` },
      to: { path: '^reports/' },
    },
    {
      name: 'nothing-imports-cli',
      comment: 'cli/ is the outermost layer: nothing below it may depend on it.',
      severity: 'error',
      from: { pathNot: `^sim/cli/|^bin/|${OUTSIDE}` },
      to: { path: '^sim/cli/' },
    },
    {
      name: 'no-clock-modules',
      comment:
        'Determinism: only cli/, bench/, test/ and the wire tier (real processes) may use real timers or performance counters; ' +
        'the simulation runs on the virtual clock.',
      severity: 'error',
      from: { pathNot: `^(sim/cli|bench|sim/wire|sim/audit)/|${OUTSIDE}` },
      to: { path: '^(node:)?(perf_hooks|timers|timers/promises)$' },
    },
    {
      name: 'not-to-unresolvable',
      comment: 'An import that does not resolve is a typo or a missing dependency.',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|out|dist)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
    knownViolations: KNOWN,
  },
};
