// Where `audit --conformance` finds the official conformance suite and a Node that can run it: the
// pinned package of .ci/conformance (installed by .ci/test-setup.sh, `npm ci --prefix
// .ci/conformance`), run by this Node when it is 22 or newer, else by the project's Node 24 of
// .ci/node24 (the suite's bundle imports fs.globSync, which Node 20 lacks). Missing either: one line
// that names the install command, never a stack trace.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The suite's package and version this audit was written against (the merge knows its check ids). */
export const SUITE_PACKAGE = '@modelcontextprotocol/conformance';
export const SUITE_VERSION = '0.2.0-alpha.12';

/** The project root: three folders up from sim/audit/conformance/ (dist/ adds one). */
function projectRoot(): string {
  const here = new URL('.', import.meta.url).pathname;
  const up = here.includes('/dist/') ? '../../../../' : '../../../';
  return new URL(up, new URL(`file://${here}`)).pathname;
}

export interface SuiteInstall {
  /** The Node binary that runs the suite. */
  node: string;
  /** The suite's entry script (its `conformance` bin). */
  script: string;
  version: string;
}

export class SuiteMissing extends Error {
  override name = 'SuiteMissing';
}

/** The installed suite and a Node for it, or SuiteMissing with the command that installs what is missing. */
export function findSuite(root: string = projectRoot(), nodeVersion: string = process.versions.node): SuiteInstall {
  const pkgDir = join(root, '.ci/conformance/node_modules', SUITE_PACKAGE);
  const pkgFile = join(pkgDir, 'package.json');
  if (!existsSync(pkgFile))
    throw new SuiteMissing(
      `audit --conformance: ${SUITE_PACKAGE} is not installed; install it with: npm ci --prefix ${join(root, '.ci/conformance')}`,
    );
  const pkg = JSON.parse(readFileSync(pkgFile, 'utf8')) as { version: string; bin?: Record<string, string> };
  if (pkg.version !== SUITE_VERSION)
    throw new SuiteMissing(
      `audit --conformance: ${SUITE_PACKAGE} ${pkg.version} is installed, not the pinned ${SUITE_VERSION}; reinstall with: npm ci --prefix ${join(root, '.ci/conformance')}`,
    );
  const script = join(pkgDir, pkg.bin?.conformance ?? 'dist/index.js');
  if (Number(nodeVersion.split('.')[0]) >= 22) return { node: process.execPath, script, version: pkg.version };
  const node24 = join(root, '.ci/node24/node_modules/.bin/node');
  if (!existsSync(node24))
    throw new SuiteMissing(
      `audit --conformance: the suite needs Node 22 or newer (this is ${nodeVersion}) and .ci/node24 is not installed; install it with: npm ci --prefix ${join(root, '.ci/node24')}`,
    );
  return { node: node24, script, version: pkg.version };
}
