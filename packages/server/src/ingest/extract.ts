import { badRequest } from '../errors.js';
import { sourcesOf, type RecordSources } from './record-source.js';
import { checkDeviceId } from './validation.js';

/** One record as found in a body, with where it was (for error messages). */
export interface FoundRecord {
  value: unknown;
  readonly path: string;
  /** The texts of its body's records, where the body gave them (record-source.ts), and its index there. */
  readonly sources?: RecordSources | undefined;
  readonly index?: number;
}

/** An element of a body's array of records: its path is named only when asked (an error's). */
class ElementFound implements FoundRecord {
  constructor(
    readonly value: unknown,
    private readonly array: string,
    readonly index: number,
    readonly sources: RecordSources | undefined,
  ) {}

  get path(): string {
    return `${this.array}[${this.index}]`;
  }
}

/** The records of one upload body and the device it names, if any. */
export interface UploadBody {
  records: FoundRecord[];
  deviceId: string | null;
  /** The object holding the body's params (the body, or one body of an array), null for a bare array. */
  params: JsonObject | null;
}

export type JsonObject = Record<string, unknown>;

const isObject = (value: unknown): value is JsonObject =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** Root keys of the anchor's SDK and its users' servers, tried first, in this order. */
const KNOWN_ROOTS = ['location', 'locations', 'data', 'records', 'points'];
/** Keys that are params or parts of a record, never the root key. */
const NOT_ROOTS = new Set(['device', 'extras', 'coords', 'activity', 'battery', 'geofence', 'provider', 'params']);

/** A record of the default schema, or a template's record with coordinates at its top. */
function looksLikeRecord(value: JsonObject): boolean {
  return (
    isObject(value.coords) ||
    'latitude' in value ||
    'lat' in value ||
    ('uuid' in value && 'timestamp' in value) ||
    ('timestamp' in value && 'is_moving' in value)
  );
}

/**
 * The key holding the records, or null when the body is the record itself (rootProperty ".").
 * Spec 2.3 lets the root key have any name, so a key is the root when it is a known one, or the
 * only member holding a record or a list of them.
 */
export function findRootKey(body: JsonObject): string | null {
  for (const key of KNOWN_ROOTS) {
    const value = body[key];
    if (isObject(value) || Array.isArray(value)) return key;
  }
  if (looksLikeRecord(body)) return null;
  const candidates = Object.keys(body).filter((key) => {
    if (NOT_ROOTS.has(key)) return false;
    const value = body[key];
    return Array.isArray(value) || (isObject(value) && looksLikeRecord(value));
  });
  if (candidates.length === 1) return candidates[0]!;
  const objects = Object.keys(body).filter((key) => !NOT_ROOTS.has(key) && isObject(body[key]));
  return objects.length === 1 ? objects[0]! : null;
}

/** An id member: absent is null; present, it must be a valid id (a string), else 400 INVALID_DEVICE_ID. */
function idMember(owner: JsonObject, key: string, where: string): string | null {
  const value = owner[key];
  if (value === undefined || value === null || value === '') return null;
  return checkDeviceId(value, where).trim();
}

/** `device_id`, `device.uuid` (or `device.id`, or `device` as a string) of a params object. */
export function deviceIdIn(value: unknown): string | null {
  if (!isObject(value)) return null;
  const direct = idMember(value, 'device_id', 'device_id') ?? idMember(value, 'deviceId', 'deviceId');
  if (direct) return direct;
  const device = value.device;
  if (isObject(device)) return idMember(device, 'uuid', 'device.uuid') ?? idMember(device, 'id', 'device.id');
  return idMember(value, 'device', 'device');
}

function fromObject(body: JsonObject, path: string): UploadBody {
  const root = findRootKey(body);
  if (root === null)
    return { records: [{ value: body, path: path || 'body' }], deviceId: deviceIdIn(body), params: body };
  const content = body[root];
  const where = path ? `${path}.${root}` : root;
  if (Array.isArray(content)) {
    const first = content.find(isObject);
    const sources = sourcesOf(content);
    return {
      records: content.map((value, i) => new ElementFound(value, where, i, sources)),
      deviceId: deviceIdIn(body) ?? deviceIdIn(first),
      params: body,
    };
  }
  // Params beside the root key win; params merged into the root object come next.
  return {
    records: [{ value: content, path: where }],
    deviceId: deviceIdIn(body) ?? deviceIdIn(content),
    params: body,
  };
}

/** How many records an object body holds (fromObject's count, without building them). */
function countIn(body: JsonObject): number {
  const root = findRootKey(body);
  const content = root === null ? body : body[root];
  return Array.isArray(content) ? content.length : 1;
}

/**
 * Every payload shape of spec 2.3, and arrays of them: `{"<root>": record|[records], ...params}`,
 * a record at the root (rootProperty "."), a bare array of records (a "." batch), or an array of
 * bodies. Arrays of bodies give one entry per body, since each may name its own device.
 * `counted` is told how many records there are before any is listed, and may refuse them (a body
 * of a million records is refused without building a million entries).
 */
export function extractBodies(body: unknown, counted: (records: number) => void = () => {}): UploadBody[] {
  if (isObject(body)) {
    counted(countIn(body));
    return [fromObject(body, '')];
  }
  if (Array.isArray(body)) {
    const bodies = body.every((item) => isObject(item) && findRootKey(item) !== null);
    counted(bodies ? body.reduce((sum: number, item) => sum + countIn(item as JsonObject), 0) : body.length);
    if (bodies && body.length > 0) return body.map((item, i) => fromObject(item as JsonObject, `body[${i}]`));
    const first = body.find(isObject);
    const sources = sourcesOf(body);
    return [
      {
        records: body.map((value, i) => new ElementFound(value, 'body', i, sources)),
        deviceId: deviceIdIn(first),
        params: null,
      },
    ];
  }
  throw badRequest(
    'INVALID_BODY',
    `The body must be a JSON object or array, got ${body === null ? 'null' : typeof body}`,
  );
}
