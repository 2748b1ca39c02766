// Regenerates the configuration table in README.md from the SDK's defaults table (run after
// `npm run build`; `npm run docs` does both). The test suite fails when the README is stale.
import { readFileSync, writeFileSync } from 'node:fs';
import { CONFIG_TABLE_MARKERS, renderConfigTable } from '@waypost/sdk/internal';

const [start, end] = CONFIG_TABLE_MARKERS;
const readme = readFileSync('README.md', 'utf8');
const from = readme.indexOf(start);
const to = readme.indexOf(end);
if (from < 0 || to < 0) throw new Error(`README.md needs the markers ${start} and ${end}`);
writeFileSync('README.md', `${readme.slice(0, from + start.length)}\n${renderConfigTable()}\n${readme.slice(to)}`);
console.log('README.md configuration table regenerated');
