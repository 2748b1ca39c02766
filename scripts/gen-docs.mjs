// Regenerates the tables of the docs pages that are made from the code (run after `npm run build`;
// `npm run docs` does both): the configuration table of docs/sdk-options.md from the SDK's
// defaults, and the error codes of docs/sdk-api.md from the SDK's codes. The test suite fails when
// a page is stale (packages/sdk/test/docs-tables.test.ts).
import { readFileSync, writeFileSync } from 'node:fs';
import {
  CONFIG_TABLE_MARKERS,
  ERROR_CODE_TABLE_MARKERS,
  renderConfigTable,
  renderErrorCodeTable,
} from '@waypost/sdk/internal';

const TABLES = [
  { file: 'docs/sdk-options.md', markers: CONFIG_TABLE_MARKERS, render: renderConfigTable },
  { file: 'docs/sdk-api.md', markers: ERROR_CODE_TABLE_MARKERS, render: renderErrorCodeTable },
];

for (const { file, markers, render } of TABLES) {
  const [start, end] = markers;
  const page = readFileSync(file, 'utf8');
  const from = page.indexOf(start);
  const to = page.indexOf(end);
  if (from < 0 || to < 0) throw new Error(`${file} needs the markers ${start} and ${end}`);
  writeFileSync(file, `${page.slice(0, from + start.length)}\n${render()}\n${page.slice(to)}`);
  console.log(`${file}: table regenerated`);
}
