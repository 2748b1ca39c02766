import { WaypostError } from '../errors.js';
import type { JsonValue } from '../config/types.js';

/**
 * `persistence.locationTemplate` / `geofenceTemplate`: `<%= tag %>` output tags substituted as
 * text, the result parsed as JSON (the anchor's format). Compiled once per configuration, so the
 * hot path is a join of pre-split parts.
 */
export const LOCATION_TAGS = [
  'latitude',
  'longitude',
  'speed',
  'heading',
  'accuracy',
  'altitude',
  'altitude_accuracy',
  'timestamp',
  'uuid',
  'event',
  'odometer',
  'sequence',
  'sequence_epoch',
  'is_moving',
  'mock',
  'activity.type',
  'activity.confidence',
  'battery.level',
  'battery.is_charging',
] as const;

export const GEOFENCE_TAGS = [...LOCATION_TAGS, 'geofence.identifier', 'geofence.action'] as const;

export type TemplateKind = 'location' | 'geofence';
export type TemplateContext = Record<string, string | number | boolean>;

export interface CompiledTemplate {
  readonly source: string;
  render(context: TemplateContext, extras: Record<string, JsonValue>): JsonValue;
}

const TAG_PATTERN = /<%=\s*([\w.]+)\s*%>/g;

/** Values that make every tag render as something JSON accepts, to check a template up front. */
const SAMPLE_CONTEXT: TemplateContext = {
  latitude: 45.5,
  longitude: -73.5,
  speed: 1.5,
  heading: 90,
  accuracy: 5,
  altitude: 10,
  altitude_accuracy: 3,
  timestamp: '2026-01-01T00:00:00.000Z',
  uuid: '00000000-0000-4000-8000-000000000000',
  event: 'motionchange',
  odometer: 0,
  sequence: 1,
  sequence_epoch: '5f0c7e4e1d2a4b7e9c513a1f',
  is_moving: true,
  mock: false,
  'activity.type': 'still',
  'activity.confidence': 100,
  'battery.level': 0.5,
  'battery.is_charging': false,
  'geofence.identifier': 'home',
  'geofence.action': 'ENTER',
};

function mergeExtras(value: JsonValue, extras: Record<string, JsonValue>): JsonValue {
  if (Object.keys(extras).length === 0) return value;
  if (Array.isArray(value)) return [...value, extras];
  if (value !== null && typeof value === 'object') return { ...value, ...extras };
  return value;
}

export function compileTemplate(source: string, kind: TemplateKind, key: string): CompiledTemplate {
  const allowed: readonly string[] = kind === 'location' ? LOCATION_TAGS : GEOFENCE_TAGS;
  const literals: string[] = [];
  const tags: string[] = [];
  let last = 0;
  for (const match of source.matchAll(TAG_PATTERN)) {
    const tag = match[1]!;
    if (!allowed.includes(tag)) {
      throw new WaypostError(
        'INVALID_CONFIG',
        `${key}: unknown tag <%= ${tag} %>. Allowed tags: ${allowed.join(', ')}.`,
        key,
      );
    }
    literals.push(source.slice(last, match.index));
    tags.push(tag);
    last = match.index + match[0].length;
  }
  literals.push(source.slice(last));

  const substitute = (context: TemplateContext): string => {
    let text = literals[0]!;
    for (let i = 0; i < tags.length; i++) text += String(context[tags[i]!] ?? '') + literals[i + 1]!;
    return text;
  };

  const sample = substitute(SAMPLE_CONTEXT);
  try {
    JSON.parse(sample);
  } catch (error) {
    throw new WaypostError(
      'INVALID_CONFIG',
      `${key}: the template does not render valid JSON (${(error as Error).message}); rendered as ${sample.slice(0, 200)}. ` +
        'String tags such as timestamp and uuid need quotes: "timestamp":"<%= timestamp %>".',
      key,
    );
  }

  return {
    source,
    render(context, extras) {
      return mergeExtras(JSON.parse(substitute(context)) as JsonValue, extras);
    },
  };
}
