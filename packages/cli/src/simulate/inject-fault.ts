import type { SimulatedDevice } from './device.js';
import type { Fault } from './faults.js';

/** A device's clock under the `clock-off` fault: an hour ahead. */
export const CLOCK_OFF_MS = 3_600_000;

/**
 * Injects one fault into a running simulated device, as the world would: the network goes, the
 * server's answers turn, the location source fails, the app stops tracking, the battery dies
 * (the device's last upload says how low it was), the device parks, its clock jumps an hour.
 */
export async function injectFault(device: SimulatedDevice, fault: Fault, stepMs: number): Promise<void> {
  const { transport, provider, clock } = device.faults;
  switch (fault) {
    case 'no-network':
      device.network.set('none');
      break;
    case 'wifi-only-cellular':
      // Configured Wi-Fi-only from the start (device.ts): now it leaves the Wi-Fi.
      device.network.set('cellular');
      break;
    case 'server-errors':
    case 'retry-after':
    case 'auth-refused':
    case 'records-refused':
      transport.fault = fault;
      break;
    case 'permission-revoked':
      provider.fail('PERMISSION_DENIED');
      break;
    case 'provider-off':
      provider.fail('SOURCE_UNAVAILABLE');
      break;
    case 'tracking-stopped':
      await device.bg.stop();
      break;
    case 'killed':
      // Its last fix and upload, on a dying battery; then the process is gone, never restarted.
      device.drainBattery(0.03);
      await device.step(stepMs);
      await device.bg.sync().catch(() => []);
      await device.close();
      break;
    case 'parked':
      await device.bg.changePace(false);
      break;
    case 'clock-off':
      clock.offsetMs = CLOCK_OFF_MS;
      break;
  }
  device.fault = fault;
}
