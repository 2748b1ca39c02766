import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CONFIG_FIELDS, CONFIG_TABLE_MARKERS, defaultConfig, renderConfigTable } from '@waypost/sdk/internal';

describe('README configuration table', () => {
  it('is the table generated from the code defaults (run `npm run docs` when this fails)', () => {
    const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');
    const [start, end] = CONFIG_TABLE_MARKERS;
    const section = readme.slice(readme.indexOf(start) + start.length, readme.indexOf(end)).trim();
    expect(section).toBe(renderConfigTable());
  });

  it('lists every field of every group with the default the SDK applies', () => {
    const table = renderConfigTable();
    const defaults = defaultConfig() as unknown as Record<string, Record<string, unknown>>;
    for (const [group, fields] of Object.entries(CONFIG_FIELDS)) {
      for (const field of Object.keys(fields)) {
        const shown = defaults[group]![field] === null ? 'none' : JSON.stringify(defaults[group]![field]);
        expect(table).toContain(`| \`${group}.${field}\` |`);
        expect(table).toContain(`\`${shown.replaceAll('|', '\\|')}\``);
      }
    }
  });
});
