import type { BackgroundGeolocation } from '@waypost/node';
import { expect } from 'vitest';

/**
 * Syncs a device whose server was just restarted at the same address: its first upload may be
 * written to the kept-alive connection of the server that is gone before the device has read that
 * connection's end (seen with the cores busy: `UND_ERR_SOCKET`). The SDK does what the spec says
 * (a network failure: the records stay, the next sync delivers them), so exactly that one named
 * failure is allowed before one more sync; anything else fails the test. Returns what was delivered.
 */
export async function syncAfterRestart(bg: BackgroundGeolocation): Promise<number> {
  const delivered = (await bg.sync()).length;
  if (delivered > 0) return delivered;
  const failures = (await bg.logger.getLog()).split('\n').filter((line) => line.includes('HTTP POST failed'));
  expect(failures.at(-1)).toMatch(/UND_ERR_SOCKET|ECONNRESET/);
  return (await bg.sync()).length;
}
