// Regenerates the tables of the docs pages that are made from the code (run after `npm run build`;
// `npm run docs` does both): the configuration table of docs/sdk-options.md from the SDK's
// defaults, the error codes of docs/sdk-api.md from the SDK's codes, and the server's error codes
// of docs/server-errors.md from its registry. The test suite fails when a page is stale
// (packages/sdk/test/docs-tables.test.ts, packages/server/test/error-codes.test.ts).
import { readFileSync, writeFileSync } from 'node:fs';
import {
  CONFIG_TABLE_MARKERS,
  ERROR_CODE_TABLE_MARKERS,
  renderConfigTable,
  renderErrorCodeTable,
} from '@waypost/sdk/internal';
import { renderServerErrorTable, SERVER_ERROR_TABLE_MARKERS } from '../packages/server/dist/error-codes.js';

const TABLES = [
  { file: 'docs/sdk-options.md', markers: CONFIG_TABLE_MARKERS, render: renderConfigTable },
  { file: 'docs/sdk-api.md', markers: ERROR_CODE_TABLE_MARKERS, render: renderErrorCodeTable },
  { file: 'docs/server-errors.md', markers: SERVER_ERROR_TABLE_MARKERS, render: renderServerErrorTable },
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
