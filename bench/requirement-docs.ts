// Writes docs/auditing.md's requirement table from sim/audit/transport-requirements.ts
// (`npm run -s requirements:docs`); test/docs/requirement-table.test.ts fails when the two drift.
import { readFileSync, writeFileSync } from 'node:fs';
import { TRANSPORT_REQUIREMENTS } from '../sim/audit/requirements.ts';
import { renderRequirementTable, withTable } from '../reports/requirement-table.ts';

const path = new URL('../docs/auditing.md', import.meta.url).pathname;
writeFileSync(path, withTable(readFileSync(path, 'utf8'), renderRequirementTable(TRANSPORT_REQUIREMENTS)));
