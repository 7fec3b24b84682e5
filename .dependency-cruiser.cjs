// The architecture's arrows, checked by `npm run check:deps`. Data flows one way (plan → world →
// history → oracles → verdict → search → finding → report); each folder is one stage and may import
// only from the stages below it. A `type-only` import (`import type …`) is erased at run time, so
// where a rule allows types it allows exactly those.
/** @type {import('dependency-cruiser').IConfiguration} */

// Folders whose code is not part of the pipeline: tests, the benchmark and example policy modules
// may import anything (they exercise the layers from outside).
const OUTSIDE = '^(test|bench|examples)/|\\.test\\.ts$';

/** The layers, lowest first. A layer may import its own folder and the folders listed as `may`. */
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
    name: 'sim/search',
    may: ['models', 'sim/core', 'sim/world', 'properties', 'sim/plugins'],
    comment: 'search/ drives worlds and judges them (its pool workers load policy modules through plugins/); it never reports',
  },
  {
    name: 'sim/compare',
    may: ['models', 'sim/core', 'sim/world', 'properties', 'sim/search'],
    comment: 'compare/ runs the matrix through search/',
  },
  {
    name: 'sim/corpus',
    may: ['models', 'sim/core', 'sim/world', 'properties', 'sim/search', 'sim/compare'],
    comment: 'corpus/ saves and replays findings',
  },
  {
    name: 'sim/plugins',
    may: ['models', 'sim/core', 'properties'],
    types: ['sim/compare'],
    comment: 'plugins/ loads policy modules into registry values (types of compare/ only: the cells a module adds)',
  },
  {
    name: 'sim/wire',
    may: ['models', 'sim/core', 'sim/world', 'properties', 'sim/search', 'sim/compare', 'sim/plugins'],
    comment: 'wire/ drives real code through the fault network',
  },
  {
    name: 'sim/audit',
    may: ['models', 'sim/core', 'sim/world', 'properties', 'sim/search', 'sim/compare', 'sim/plugins', 'sim/wire'],
    comment: 'audit/ runs named scenarios against real servers and clients through wire/',
  },
  {
    name: 'reports',
    may: ['models', 'sim/core', 'properties'],
    types: ['sim/world', 'sim/search', 'sim/compare', 'sim/wire', 'sim/audit'],
    comment: 'reports/ renders result data and never runs the simulation (types of world/, search/, compare/, wire/ only)',
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

// A layer that may import some folders for their types only gets a second, narrower rule: values
// from those folders are forbidden, types are not.
const forbidden = [];
for (const l of LAYERS) {
  const own = [l.name, ...l.may];
  const typesOnly = l.types ?? [];
  const rest = [
    'models',
    'sim/core',
    'sim/world',
    'properties',
    'sim/search',
    'sim/compare',
    'sim/corpus',
    'sim/plugins',
    'sim/wire',
    'sim/audit',
    'reports',
    'sim/cli',
  ].filter((f) => !own.includes(f) && !typesOnly.includes(f));
  if (rest.length) {
    forbidden.push({
      name: `layer-${l.name}`,
      comment: l.comment,
      severity: 'error',
      from: { path: `^${l.name}/`, pathNot: OUTSIDE },
      to: { path: `^(${rest.join('|')})/|^index\\.ts$` },
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
