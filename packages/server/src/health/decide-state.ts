import type { HealthReport } from '@waypost/sdk/internal';

/** What a device is doing, as the server names it (docs/device-health.md). */
export const DEVICE_STATES = ['live', 'parked', 'waiting', 'failing', 'source-lost', 'stopped', 'silent'] as const;
export type DeviceState = (typeof DEVICE_STATES)[number];

/** Stable cause codes, each with the state it belongs to (documented in docs/device-health.md). */
export const CAUSES = {
  reporting: 'live',
  'clock-off': 'live',
  stationary: 'parked',
  'wifi-only': 'waiting',
  'no-network': 'waiting',
  'retry-after': 'waiting',
  'autosync-off': 'waiting',
  'auth-refused': 'failing',
  'records-refused': 'failing',
  'server-errors': 'failing',
  timeouts: 'failing',
  'client-errors': 'failing',
  'device-blocked': 'failing',
  'permission-denied': 'source-lost',
  'provider-off': 'source-lost',
  'no-fix': 'source-lost',
  'tracking-stopped': 'stopped',
  'battery-dead': 'stopped',
  'app-terminated': 'stopped',
  'device-deleted': 'stopped',
  unexplained: 'silent',
} as const satisfies Record<string, DeviceState>;
export type Cause = keyof typeof CAUSES;

/** A device's newest record, as far as a tracker without health reports tells its state. */
export interface LastRecord {
  /** Device time (epoch ms). */
  at: number;
  moving: boolean | null;
  battery: { level: number; charging: boolean } | null;
  /** It reports on significant moves only (OwnTracks `m: 1`): a silence is likely a stay. */
  significantOnly?: boolean;
  /** It had no connection when it made the record (OwnTracks `conn: "o"`). */
  offline?: boolean;
}

export interface HealthInputs {
  now: number;
  status: 'active' | 'blocked' | 'deleted';
  /** Server time of the device's last upload, null before any. */
  lastSeen: number | null;
  /** The newest health report and when it arrived (server time). */
  report: HealthReport | null;
  reportAt: number | null;
  lastRecord: LastRecord | null;
  /**
   * The server refused a request of this device (its credentials revoked or expired, or before its
   * handler: size, depth, content type, rate limit): when last, since when (server time), and the
   * refusal's cause (auth-refused when not said). Its own observation: certain while the device keeps trying.
   */
  refused?: { at: number; since: number; cause?: Cause } | null;
  /** A device with no upload for this long is quiet beyond its expected interval. */
  silentAfterMs: number;
}

export interface NamedState {
  state: DeviceState;
  cause: Cause;
  /** Read from a tracker's records, or from a report older than the silence. */
  inferred: boolean;
  /** Since when (epoch ms, server time), as well as known. */
  since: number | null;
}

/** A device clock this far from the server's is named `clock-off`. */
export const CLOCK_OFF_MS = 5 * 60_000;
/** A battery at or below this, not charging, makes a device's silence a likely dead battery. */
export const LOW_BATTERY = 0.1;

const named = (cause: Cause, inferred: boolean, since: number | null): NamedState => ({
  state: CAUSES[cause],
  cause,
  inferred,
  since,
});

/** The cause of each upload failure class a report names (`fail=`), while it lasts and on a return. */
export const FAILURE_CAUSES: Record<NonNullable<HealthReport['failure']>['class'], Cause> = {
  auth: 'auth-refused',
  refused: 'records-refused',
  server: 'server-errors',
  throttled: 'retry-after',
  timeout: 'timeouts',
  network: 'no-network',
  client: 'client-errors',
};
const HOLD_CAUSES: Record<NonNullable<HealthReport['hold']>['kind'], Cause> = {
  wifi: 'wifi-only',
  offline: 'no-network',
  'retry-after': 'retry-after',
  'autosync-off': 'autosync-off',
};
const PROVIDER_CAUSES: Record<string, Cause> = {
  denied: 'permission-denied',
  disabled: 'provider-off',
  nofix: 'no-fix',
};

/** `seconds` before `at`, in ms. */
const before = (at: number, seconds: number | undefined): number | null =>
  seconds === undefined ? null : at - seconds * 1000;

/** The state a report names (what the device said about itself when it sent it). */
function fromReport(report: HealthReport, at: number, inferred: boolean): NamedState {
  if (report.tracking === false) return named('tracking-stopped', inferred, at);
  if (report.failure && report.failure.class !== 'network' && report.failure.class !== 'timeout') {
    return named(FAILURE_CAUSES[report.failure.class], inferred, before(at, report.failure.ago));
  }
  if (report.hold) return named(HOLD_CAUSES[report.hold.kind], inferred, at);
  if (report.failure) return named(FAILURE_CAUSES[report.failure.class], inferred, before(at, report.failure.ago));
  const provider = report.provider ? PROVIDER_CAUSES[report.provider] : undefined;
  if (provider) return named(provider, inferred, at);
  if (!inferred && report.clock !== undefined && Math.abs(report.clock * 1000 - at) > CLOCK_OFF_MS) {
    return named('clock-off', false, at);
  }
  if (report.motion && !report.motion.moving) return named('stationary', inferred, before(at, report.motion.for) ?? at);
  return named('reporting', inferred, at);
}

/**
 * Why a device that stopped uploading is quiet, from what it said last (all of it inferred): a
 * stop it announced, a battery about to die, a Wi-Fi-only device that was on Wi-Fi (it left it),
 * a hold or failure it was already in; otherwise the network is the likely cause.
 */
function fromLastReport(report: HealthReport, lastSeen: number): NamedState {
  const battery = report.battery;
  if (report.tracking !== false && battery && battery.level <= LOW_BATTERY && !battery.charging) {
    return named('battery-dead', true, lastSeen);
  }
  const said = fromReport(report, lastSeen, true);
  if (said.cause !== 'reporting' && said.cause !== 'stationary') return said;
  if (report.wifiOnly && report.network !== 'cellular') return named('wifi-only', true, lastSeen);
  return named('no-network', true, lastSeen);
}

/**
 * A tracker that sends no health report: what its newest record allows (inferred). Quiet, a
 * tracker that reports significant moves only and was not moving is likely staying put; one that
 * made its record offline has likely no network.
 */
function fromRecords(record: LastRecord | null, lastSeen: number, silent: boolean): NamedState {
  if (record === null) return named(silent ? 'unexplained' : 'reporting', true, lastSeen);
  const battery = record.battery;
  if (silent && battery && battery.level >= 0 && battery.level <= LOW_BATTERY && !battery.charging) {
    return named('battery-dead', true, lastSeen);
  }
  if (record.moving === false) return named('stationary', true, Math.min(record.at, lastSeen));
  if (!silent) return named('reporting', true, lastSeen);
  if (record.significantOnly && record.moving !== true) return named('stationary', true, lastSeen);
  if (record.offline) return named('no-network', true, lastSeen);
  return named('unexplained', true, lastSeen);
}

/**
 * The state and cause of one device, from what the server holds about it: its status, its last
 * upload, its newest health report and record. Pure: every rule is a line of a table test.
 */
export function decideDeviceState(input: HealthInputs): NamedState {
  const { now, lastSeen, report, reportAt } = input;
  if (input.status === 'deleted') return named('device-deleted', false, lastSeen);
  if (input.status === 'blocked') return named('device-blocked', false, lastSeen);
  const refused = input.refused;
  if (refused && (lastSeen === null || refused.at >= lastSeen)) {
    // Refused since its last accepted upload: the server saw it, so certain until it stops trying.
    return named(refused.cause ?? 'auth-refused', now - refused.at > input.silentAfterMs, refused.since);
  }
  if (lastSeen === null) return named('unexplained', true, null);
  const silent = now - lastSeen > input.silentAfterMs;
  const reportIsCurrent = report !== null && reportAt !== null && reportAt >= lastSeen;
  if (!silent) {
    if (reportIsCurrent) return fromReport(report, reportAt, false);
    return fromRecords(input.lastRecord, lastSeen, false);
  }
  if (report !== null && reportAt !== null) return fromLastReport(report, reportAt);
  return fromRecords(input.lastRecord, lastSeen, true);
}

/** Whether two named states are the same (a change of any of state, cause or inferred is a change). */
export const sameState = (a: NamedState | null, b: NamedState): boolean =>
  a !== null && a.state === b.state && a.cause === b.cause && a.inferred === b.inferred;
