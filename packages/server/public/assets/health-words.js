// A device's health state and cause (GET /api/health, docs/device-health.md) in words, as text.
const CAUSE_WORDS = {
  reporting: 'reporting',
  'clock-off': 'reporting, its clock is off',
  stationary: 'parked',
  'wifi-only': 'waiting for Wi-Fi',
  'no-network': 'no network',
  'retry-after': 'told to wait (Retry-After)',
  'autosync-off': 'automatic uploads off',
  'auth-refused': 'credentials refused',
  'records-refused': 'records refused',
  'server-errors': 'server errors',
  timeouts: 'uploads time out',
  'client-errors': 'requests refused',
  'device-blocked': 'blocked here',
  'permission-denied': 'location permission denied',
  'provider-off': 'location source off',
  'no-fix': 'no location fix',
  'tracking-stopped': 'tracking stopped',
  'battery-dead': 'battery likely dead',
  'device-deleted': 'deleted',
  unexplained: 'silent, no explanation',
};

/** "parked", "no network (likely)": the cause in words, marked when inferred rather than reported. */
export function healthWords(health) {
  if (!health) return null;
  const words = CAUSE_WORDS[health.cause] ?? String(health.cause);
  return health.inferred ? words + ' (likely)' : words;
}
