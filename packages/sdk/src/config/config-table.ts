import type { FieldSpec } from './field-spec.js';
import { GROUP_NAMES, describeDefault, fieldsOf } from './fields.js';

function describeType(spec: FieldSpec): string {
  switch (spec.type) {
    case 'boolean':
      return 'boolean';
    case 'integer':
      return `integer ≥ ${spec.min}${spec.allowMinusOne ? ' or -1' : ''}`;
    case 'number':
      return `number ≥ ${spec.min}`;
    case 'string':
      return `${spec.url ? 'URL' : spec.template ? 'template' : 'string'}${spec.nullable ? ' or null' : ''}`;
    case 'enum':
      return spec.values.join(' \\| ');
    case 'stringMap':
      return 'object of strings';
    case 'jsonObject':
      return 'object';
    case 'list':
      return 'list of command names';
  }
}

/**
 * The README's configuration table, generated from CONFIG_FIELDS so the documented defaults are
 * the defaults the code applies (a test fails when the README's copy is stale).
 */
export function renderConfigTable(): string {
  const rows = ['| Key | Type | Default | Flat key | Meaning |', '|---|---|---|---|---|'];
  for (const group of GROUP_NAMES) {
    for (const [field, spec] of Object.entries(fieldsOf(group))) {
      const flat = group === 'authorization' ? '' : `\`${spec.flatKey ?? field}\``;
      const value = describeDefault(spec.default).replaceAll('|', '\\|');
      rows.push(`| \`${group}.${field}\` | ${describeType(spec)} | \`${value}\` | ${flat} | ${spec.doc} |`);
    }
  }
  return rows.join('\n');
}

export const CONFIG_TABLE_MARKERS = ['<!-- config-table:start -->', '<!-- config-table:end -->'] as const;
