// The docs pages' tables made from the code (`npm run docs`, scripts/gen-docs.mjs): the
// configuration table of docs/sdk-options.md and the error codes of docs/sdk-api.md are exactly
// what the code renders, and what the code renders covers every default and every code there is.
import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  CONFIG_FIELDS,
  CONFIG_TABLE_MARKERS,
  ERROR_CODE_MEANINGS,
  ERROR_CODE_TABLE_MARKERS,
  defaultConfig,
  renderConfigTable,
  renderErrorCodeTable,
} from '@waypost/sdk/internal';

const root = new URL('../../../', import.meta.url);

function generated(page: string, [start, end]: readonly [string, string]): string {
  const text = readFileSync(new URL(page, root), 'utf8');
  expect(text.indexOf(start), `${page} has the marker ${start}`).toBeGreaterThan(0);
  expect(text.indexOf(end), `${page} has the marker ${end}`).toBeGreaterThan(text.indexOf(start));
  return text.slice(text.indexOf(start) + start.length, text.indexOf(end)).trim();
}

/** The sources of the SDK and its two platforms, for the codes they throw. */
function sources(): string {
  return ['packages/sdk/src/', 'packages/node/src/', 'packages/browser/src/']
    .flatMap((dir) =>
      (readdirSync(new URL(dir, root), { recursive: true }) as string[])
        .filter((file) => file.endsWith('.ts'))
        .map((file) => readFileSync(new URL(`${dir}${file}`, root), 'utf8')),
    )
    .join('\n');
}

describe('docs/sdk-options.md: the configuration table', () => {
  it('is the table generated from the code defaults (run `npm run docs` when this fails)', () => {
    expect(generated('docs/sdk-options.md', CONFIG_TABLE_MARKERS)).toBe(renderConfigTable());
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

describe('docs/sdk-api.md: the error codes', () => {
  it('are the table generated from the code (run `npm run docs` when this fails)', () => {
    expect(generated('docs/sdk-api.md', ERROR_CODE_TABLE_MARKERS)).toBe(renderErrorCodeTable());
  });

  it('list every code the SDK, Node and the browser throw, and the codes uploads report', () => {
    const thrown = new Set([...sources().matchAll(/WaypostError\(\s*'([A-Z_]+)'/g)].map((m) => m[1]!));
    expect(thrown.size).toBeGreaterThanOrEqual(10);
    const table = renderErrorCodeTable();
    expect([...thrown].filter((code) => !table.includes(`| \`${code}\` | thrown |`))).toEqual([]);
    for (const code of [
      'INVALID_QUERY',
      'NO_LOCATION_PROVIDER',
      'LOCATION_TIMEOUT',
      'NOT_SUPPORTED',
      'REGISTRATION_FAILED',
    ])
      expect(Object.keys(ERROR_CODE_MEANINGS)).toContain(code);
    expect(table).toContain('| `UPLOAD_ERROR` | reported |');
    expect(table).toContain('| `RECORD_REFUSED` | reported |');
  });
});
