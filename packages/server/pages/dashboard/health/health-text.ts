// A device's state and cause as plain sentences (docs/device-health.md), always rendered as text:
// the device list's line, the device panel's "State" section, and the silent periods of the
// delivery ledger's timeline. Nothing here builds HTML from strings.
import { apiJson } from '../base/api.js';
import { el, fill } from '../base/dom.js';
import * as fmt from '../settings/format.js';
import type { Health, HealthDetail, SilentPeriod } from '../replies.js';

/** ": 42 records queued since 10:02:00", from the device's report (queued, oldest age) when it said so. */
function queued(detail: HealthDetail | null): string {
  // The report is the device's own words (any keys): numbers are read only when they are numbers.
  const report = detail?.report;
  const count = report?.queued;
  if (typeof count !== 'number' || !(count > 0)) return '';
  const records = count === 1 ? '1 record' : count + ' records';
  const at = Date.parse(detail?.reportedAt ?? '');
  const oldestAge = report?.oldestAge;
  const since =
    typeof oldestAge === 'number' && oldestAge >= 0 && Number.isFinite(at)
      ? ' since ' + fmt.clock(at - oldestAge * 1000)
      : '';
  return ': ' + records + ' queued' + since;
}

const since = (health: Partial<Health>): string =>
  health.since ? ' since ' + fmt.clock(Date.parse(health.since)) : '';

/** One sentence per cause code; `detail` (GET /api/devices/:id/health) adds what the device said. */
const SENTENCES: Record<string, (health: Partial<Health>, detail: HealthDetail | null) => string> = {
  reporting: () => 'Live: uploading as it goes',
  'clock-off': () => "Live, but its clock is more than 5 minutes off the server's",
  stationary: (h) => 'Parked' + since(h),
  'wifi-only': (h, d) => 'Waiting for Wi-Fi' + (queued(d) || since(h)),
  'no-network': (h, d) => 'No network' + (queued(d) || since(h)),
  'retry-after': (h, d) => 'Told by the server to wait (Retry-After)' + (queued(d) || since(h)),
  'autosync-off': (h, d) => 'Automatic uploads are off; records wait for a manual sync' + queued(d),
  'auth-refused': (h) => 'Its credentials are refused (a revoked or expired token)' + since(h),
  'records-refused': (h, d) => 'The server refuses its records' + (queued(d) || since(h)),
  'server-errors': (h, d) => 'Its uploads fail with server errors' + (queued(d) || since(h)),
  timeouts: (h, d) => 'Its uploads time out' + (queued(d) || since(h)),
  'client-errors': (h, d) => 'Its uploads are refused' + (queued(d) || since(h)),
  'device-blocked': () => 'Blocked on this server',
  'permission-denied': (h) => 'Location permission revoked: no positions' + since(h),
  'provider-off': (h) => 'Location source switched off' + since(h),
  'no-fix': (h) => 'No location fix' + since(h),
  'tracking-stopped': (h) => 'Tracking stopped' + since(h),
  'battery-dead': (h) => 'Quiet on a nearly empty battery: likely dead' + since(h),
  'app-terminated': (h) => 'The app was not running' + since(h),
  'device-deleted': () => 'Deleted on this server',
  unexplained: (h) => 'Silent, and nothing it said explains why' + since(h),
};

/** "Waiting for Wi-Fi: 42 records queued since 10:02:00 (likely)": the state in one sentence. */
export function healthSentence(health: Health | null | undefined, detail: HealthDetail | null): string | null {
  if (!health) return null;
  const say = SENTENCES[health.cause];
  const words = say ? say(health, detail) : 'State ' + String(health.state) + ', cause ' + String(health.cause);
  return health.inferred ? words + ' (likely, from what it said last)' : words;
}

/** "Silent from … to … because no network (said by the device on its return)". */
export function silentPeriodText(period: SilentPeriod): string {
  const sentence = SENTENCES[period.cause];
  const cause = sentence ? sentence({}, null) : String(period.cause);
  return (
    'Silent from ' +
    fmt.time(Date.parse(period.from)) +
    ' to ' +
    fmt.time(Date.parse(period.to)) +
    ': ' +
    cause +
    (period.inferred ? ' (likely: not confirmed by the device)' : ' (said by the device on its return)')
  );
}

/** The ledger's timeline of explained silences, or nothing when there is none. */
export function silentPeriodList(periods: unknown): HTMLUListElement | null {
  if (!Array.isArray(periods) || periods.length === 0) return null;
  return el(
    'ul',
    { className: 'silent-periods' },
    ...(periods as SilentPeriod[]).map((period) => el('li', {}, silentPeriodText(period))),
  );
}

/** A details section (deviceId, rangeQuery, report): the device's state and cause, in words. */
export function deviceStateSection(
  deviceId: string,
  _rangeQuery: unknown,
  report: (error: unknown) => void,
): HTMLElement {
  const section = el(
    'section',
    { id: 'device-state' },
    el('h3', {}, 'State'),
    el('p', { className: 'hint' }, 'loading…'),
  );
  apiJson('/api/devices/' + encodeURIComponent(deviceId) + '/health')
    .then((answer) => {
      const detail = answer as HealthDetail;
      const refused = detail.authRefused;
      fill(
        section,
        el('h3', {}, 'State'),
        el('p', { className: 'state-sentence ' + detail.state }, healthSentence(detail, detail)),
        refused
          ? el(
              'p',
              { className: 'hint' },
              'Seen by the server: a request with its refused credentials (' +
                fmt.text(refused.code) +
                ') last arrived ' +
                fmt.time(Date.parse(refused.at ?? '')) +
                '.',
            )
          : null,
        detail.lastSeen ? el('p', { className: 'hint' }, 'Last upload ' + fmt.time(Date.parse(detail.lastSeen))) : null,
      );
    })
    .catch(report);
  return section;
}
