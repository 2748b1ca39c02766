import { parseDictionary, serializeDictionary, Token, type Dictionary, type Item } from 'structured-headers';

/**
 * The device health report (issue 31): what an upload's records cannot say about why a device is
 * quiet, carried on every upload to a server that reads it, as an RFC 8941 Structured Field
 * Dictionary in a request header, so that the upload's JSON body stays exactly the spec's:
 *
 *   Waypost-Health: v="0.1.0", clock=1795000000, q=12, oldest=340, fail=timeout;ago=30,
 *     hold=wifi, was=offline;for=600;ago=5, net=cellular, wifionly=?1, motion=still;for=3600, provider=ok, batt=0.54;charging, track=?1, sot=?0
 *
 * Times are ages in seconds on the device's clock (`ago`, `for`, `oldest`), never instants: a
 * device clock an hour off still says how long ago; `clock` is the device's own time, so the
 * server can tell the clock is off; `dev` is the device's name as its uploads give it (so a server
 * that refuses an upload before reading its body knows whose it was). Every member is optional; unknown members are ignored, so a
 * newer SDK can add some. It never holds a credential, an URL or free text, and it is bounded
 * (MAX_HEALTH_HEADER_CHARS). The SDK sends it only to a server that answered an upload with
 * `Waypost-Health-Accepted: 1`: a custom header makes a browser ask a foreign server's CORS
 * preflight, which could refuse the upload (the same rule as Waypost-Dropped).
 */
export const HEALTH_HEADER = 'waypost-health';
/** The response header by which a server says it reads HEALTH_HEADER (value `1`). */
export const HEALTH_ACCEPTED_HEADER = 'waypost-health-accepted';
export const MAX_HEALTH_HEADER_CHARS = 512;

/** The last upload failure's class (since the last delivered upload). */
export const FAILURE_CLASSES = ['network', 'timeout', 'server', 'throttled', 'client', 'auth', 'refused'] as const;
export type FailureClass = (typeof FAILURE_CLASSES)[number];
/** What holds automatic uploads back: Wi-Fi only on cellular, no network, a Retry-After, autoSync off. */
export const HOLDS = ['wifi', 'offline', 'retry-after', 'autosync-off'] as const;
export type Hold = (typeof HOLDS)[number];
/** The location source: delivering, permission denied, switched off or gone, delivering no fix. */
export const PROVIDER_STATES = ['ok', 'denied', 'disabled', 'nofix'] as const;
export type ProviderStateName = (typeof PROVIDER_STATES)[number];
export const NETWORKS = ['wifi', 'cellular', 'ethernet', 'none'] as const;

/** One health report, as the device states it (ages in whole seconds). */
export interface HealthReport {
  /** The SDK's version. */
  version?: string;
  /** The device's clock, epoch seconds. */
  clock?: number;
  /** Records queued, not yet delivered. */
  queued?: number;
  /** Age of the oldest queued record (seconds). */
  oldestAge?: number;
  failure?: { class: FailureClass; ago: number; status?: number };
  hold?: { kind: Hold; for?: number };
  /**
   * The hold that ended since the last delivery: how long it held (`for`) and how long ago it
   * ended (`ago`), so a device back from a silence says for certain why it was quiet.
   */
  was?: { kind: Hold; for: number; ago: number };
  network?: (typeof NETWORKS)[number];
  /** Uploads wait for Wi-Fi (disableAutoSyncOnCellular): lets a server guess why a device went quiet. */
  wifiOnly?: boolean;
  motion?: { moving: boolean; for?: number };
  provider?: ProviderStateName;
  battery?: { level: number; charging: boolean };
  tracking?: boolean;
  stopOnTerminate?: boolean;
  /** Seconds since this SDK instance started: a device back after a restart says it was not running. */
  up?: number;
  /**
   * The device's name as its uploads give it (params or X-Device-Id; at most MAX_DEVICE_CHARS):
   * a server that refuses an upload before reading its body still knows whose it was.
   */
  device?: string;
}

/** A device name longer than this is left out of the report (the body still carries it). */
export const MAX_DEVICE_CHARS = 64;
const PRINTABLE = /^[\x20-\x7e]+$/;

const SECONDS = (n: number) => Math.max(0, Math.min(999_999_999_999, Math.round(n)));

/** The header's value for a report (members in a fixed order, absent ones left out). */
export function formatHealthHeader(report: HealthReport): string {
  const dict: Dictionary = new Map();
  const put = (key: string, value: Item[0], params: Record<string, Item[0]> = {}) =>
    dict.set(key, [value, new Map(Object.entries(params))]);
  if (report.version !== undefined) put('v', report.version.replace(/[^\x20-\x7e]/g, '?').slice(0, 32));
  if (report.clock !== undefined) put('clock', SECONDS(report.clock));
  if (report.queued !== undefined) put('q', SECONDS(report.queued));
  if (report.oldestAge !== undefined) put('oldest', SECONDS(report.oldestAge));
  if (report.failure) {
    const { status } = report.failure;
    put('fail', new Token(report.failure.class), {
      ago: SECONDS(report.failure.ago),
      ...(status ? { status: SECONDS(status) } : {}),
    });
  }
  if (report.hold) {
    put('hold', new Token(report.hold.kind), report.hold.for === undefined ? {} : { for: SECONDS(report.hold.for) });
  }
  if (report.was) {
    put('was', new Token(report.was.kind), { for: SECONDS(report.was.for), ago: SECONDS(report.was.ago) });
  }
  if (report.network) put('net', new Token(report.network));
  if (report.wifiOnly !== undefined) put('wifionly', report.wifiOnly);
  if (report.motion) {
    const params: Record<string, Item[0]> = report.motion.for === undefined ? {} : { for: SECONDS(report.motion.for) };
    put('motion', new Token(report.motion.moving ? 'moving' : 'still'), params);
  }
  if (report.provider) put('provider', new Token(report.provider));
  if (report.battery && report.battery.level >= 0 && report.battery.level <= 1) {
    put('batt', Math.round(report.battery.level * 100) / 100, report.battery.charging ? { charging: true } : {});
  }
  if (report.tracking !== undefined) put('track', report.tracking);
  if (report.stopOnTerminate !== undefined) put('sot', report.stopOnTerminate);
  if (report.up !== undefined) put('up', SECONDS(report.up));
  if (report.device !== undefined && report.device.length <= MAX_DEVICE_CHARS && PRINTABLE.test(report.device)) {
    put('dev', report.device);
  }
  return serializeDictionary(dict);
}

type Parsed = { ok: true; report: HealthReport } | { ok: false; why: string };

const int = (item: Item | undefined): number | undefined =>
  typeof item?.[0] === 'number' && Number.isInteger(item[0]) && item[0] >= 0 ? item[0] : undefined;
const intParam = (item: Item, key: string): number | undefined => {
  const value = item[1].get(key);
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : undefined;
};
function token<T extends string>(item: Item | undefined, allowed: readonly T[]): T | undefined {
  const value = item?.[0];
  return value instanceof Token && (allowed as readonly string[]).includes(value.toString())
    ? (value.toString() as T)
    : undefined;
}
const bool = (item: Item | undefined): boolean | undefined => (typeof item?.[0] === 'boolean' ? item[0] : undefined);
const withFor = (item: Item) => {
  const seconds = intParam(item, 'for');
  return seconds === undefined ? {} : { for: seconds };
};

/**
 * A header's report, or why it is ignored (too long, not a Dictionary). Members of the wrong type
 * or with unknown values are left out one by one: what can be read is kept.
 */
export function parseHealthHeader(value: string): Parsed {
  if (value.length > MAX_HEALTH_HEADER_CHARS)
    return { ok: false, why: `longer than ${MAX_HEALTH_HEADER_CHARS} characters` };
  let dict: Dictionary;
  try {
    dict = parseDictionary(value);
  } catch (error) {
    return { ok: false, why: `not a Structured Field Dictionary (${(error as Error).message.slice(0, 80)})` };
  }
  const item = (key: string): Item | undefined => {
    const member = dict.get(key);
    return member && !Array.isArray(member[0]) ? (member as Item) : undefined;
  };
  const report: HealthReport = {};
  const v = item('v')?.[0];
  if (typeof v === 'string') report.version = v.slice(0, 32);
  const set = <K extends keyof HealthReport>(key: K, v: HealthReport[K] | undefined) => {
    if (v !== undefined) report[key] = v;
  };
  set('clock', int(item('clock')));
  set('queued', int(item('q')));
  set('oldestAge', int(item('oldest')));
  const fail = item('fail');
  const failClass = token(fail, FAILURE_CLASSES);
  if (fail && failClass) {
    const status = intParam(fail, 'status');
    report.failure = { class: failClass, ago: intParam(fail, 'ago') ?? 0, ...(status ? { status } : {}) };
  }
  const hold = item('hold');
  const holdKind = token(hold, HOLDS);
  if (hold && holdKind) report.hold = { kind: holdKind, ...withFor(hold) };
  const was = item('was');
  const wasKind = token(was, HOLDS);
  if (was && wasKind) report.was = { kind: wasKind, for: intParam(was, 'for') ?? 0, ago: intParam(was, 'ago') ?? 0 };
  set('network', token(item('net'), NETWORKS));
  set('wifiOnly', bool(item('wifionly')));
  const motion = item('motion');
  const moving = token(motion, ['moving', 'still'] as const);
  if (motion && moving) report.motion = { moving: moving === 'moving', ...withFor(motion) };
  set('provider', token(item('provider'), PROVIDER_STATES));
  const batt = item('batt');
  if (batt && typeof batt[0] === 'number' && batt[0] >= 0 && batt[0] <= 1) {
    report.battery = { level: batt[0], charging: batt[1].get('charging') === true };
  }
  set('tracking', bool(item('track')));
  set('stopOnTerminate', bool(item('sot')));
  set('up', int(item('up')));
  const dev = item('dev')?.[0];
  if (typeof dev === 'string' && dev !== '' && dev.length <= MAX_DEVICE_CHARS) report.device = dev;
  return { ok: true, report };
}
