// A device's health state and cause (GET /api/health, docs/device-health.md) in words, as text:
// the device list's line, one sentence per cause (health-text.js).
import { healthSentence } from './health-text.js';

/** "Parked since 10:02:00", "No network since 10:02:00 (likely, …)": marked when inferred. */
export function healthWords(health: Parameters<typeof healthSentence>[0]): string {
  return healthSentence(health, null) ?? '';
}
