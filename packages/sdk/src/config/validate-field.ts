import { WaypostError } from '../errors.js';
import type { FieldSpec } from './field-spec.js';
import { compileTemplate } from '../records/template.js';
import { jsonProblem } from '../records/json-bounds.js';

function fail(key: string, value: unknown, allowed: string): never {
  let shown: string;
  try {
    // A bounded rendering: a hostile value (deep, huge, cyclic) must not make the error throw.
    shown = value === undefined ? 'undefined' : jsonProblem(value) ? 'this value' : JSON.stringify(value).slice(0, 200);
  } catch {
    shown = 'this value';
  }
  throw new WaypostError('INVALID_CONFIG', `${key}: ${shown} is not allowed; expected ${allowed}.`, key);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Checks one field's value against its spec and returns it normalized (copied, never aliased). */
export function validateField(key: string, spec: FieldSpec, value: unknown): unknown {
  switch (spec.type) {
    case 'boolean':
      if (typeof value !== 'boolean') fail(key, value, 'true or false');
      return value;
    case 'integer': {
      const range = `an integer ${spec.allowMinusOne ? '-1 or ' : ''}>= ${spec.min}${spec.max === undefined ? '' : ` and <= ${spec.max}`}`;
      if (typeof value !== 'number' || !Number.isInteger(value)) fail(key, value, range);
      if (spec.allowMinusOne && value === -1) return value;
      if (value < spec.min || (spec.max !== undefined && value > spec.max)) fail(key, value, range);
      return value;
    }
    case 'number': {
      const range = `a number >= ${spec.min}${spec.max === undefined ? '' : ` and <= ${spec.max}`}`;
      if (typeof value !== 'number' || !Number.isFinite(value)) fail(key, value, range);
      if (value < spec.min || (spec.max !== undefined && value > spec.max)) fail(key, value, range);
      return value;
    }
    case 'string': {
      if (value === null && spec.nullable) return null;
      const what = spec.url ? 'an http:// or https:// URL' : spec.template ? 'a JSON template string' : 'a string';
      if (typeof value !== 'string') fail(key, value, spec.nullable ? `${what} or null` : what);
      if (spec.url) {
        let parsed: URL | undefined;
        try {
          parsed = new URL(value);
        } catch {
          parsed = undefined;
        }
        if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) fail(key, value, what);
      }
      if (spec.template) compileTemplate(value, spec.template, key);
      if (!spec.nullable && value.length === 0) fail(key, value, 'a non-empty string');
      return value;
    }
    case 'enum': {
      if (typeof value === 'number' && spec.numeric && Object.hasOwn(spec.numeric, value)) {
        return spec.numeric[value];
      }
      const match =
        typeof value === 'string'
          ? spec.values.find((v) => v === value || (spec.caseInsensitive && v.toLowerCase() === value.toLowerCase()))
          : undefined;
      if (match === undefined) {
        const numbers = spec.numeric
          ? ` (or ${Object.entries(spec.numeric)
              .map(([n, name]) => `${n} for ${name}`)
              .join(', ')})`
          : '';
        fail(key, value, `one of ${spec.values.join(', ')}${numbers}`);
      }
      return match;
    }
    case 'stringMap': {
      if (!isPlainObject(value)) fail(key, value, 'an object of string values');
      for (const [k, v] of Object.entries(value)) {
        if (typeof v !== 'string') fail(`${key}.${k}`, v, 'a string');
      }
      return { ...value };
    }
    case 'jsonObject': {
      const problem = isPlainObject(value) ? jsonProblem(value) : null;
      if (!isPlainObject(value) || problem)
        fail(key, value, `an object of JSON values${problem ? ` (it has ${problem})` : ''}`);
      return JSON.parse(JSON.stringify(value)) as unknown;
    }
    case 'list': {
      if (!Array.isArray(value)) fail(key, value, `a list of ${spec.values.join(', ')}`);
      for (const item of value) {
        if (typeof item !== 'string' || !spec.values.includes(item)) {
          fail(key, item, `one of ${spec.values.join(', ')}`);
        }
      }
      return [...new Set(value as string[])];
    }
  }
}
