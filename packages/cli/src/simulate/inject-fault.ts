import type { SimulatedDevice } from './device.js';
import type { FaultProxy, PathMode } from './fault-proxy.js';
import { GATEWAY_404, GATEWAY_422, GATEWAY_502, gateway503, type Fault } from './faults.js';

/** A device's clock under the `clock-off` fault: an hour ahead. */
export const CLOCK_OFF_MS = 3_600_000;
/** Levels: an application's extras nested this deep pass the SDK's bound and exceed the service's. */
const TOO_DEEP_EXTRAS = 31;

/** What a fault may act through besides the device: its fault point and the service's admin API. */
export interface FaultWorld {
  proxy: FaultProxy;
  /** The service's own actions on a device (an operator's, or the server refusing its token). */
  service: {
    revokeTokens(deviceId: string): Promise<void>;
    block(deviceId: string): Promise<void>;
    remove(deviceId: string): Promise<void>;
  };
  /** The Retry-After of the gateway's 503 (seconds). */
  retryAfterSeconds: number;
}

/** The path modes of the faults made in the network path. */
const PATH_MODES = (retryAfterSeconds: number): Partial<Record<Fault, PathMode>> => ({
  'network-drops': { kind: 'drop' },
  'cut-mid-body': { kind: 'cut' },
  timeouts: { kind: 'blackhole' },
  'server-errors': GATEWAY_502,
  'retry-after': gateway503(retryAfterSeconds),
  'records-refused': GATEWAY_422,
  'client-errors': GATEWAY_404,
});

/** Extras nested `levels` deep: `{a: {a: ... {}}}`. */
function nested(levels: number): Record<string, unknown> {
  let value: Record<string, unknown> = {};
  for (let n = 1; n < levels; n++) value = { a: value };
  return value;
}

/**
 * Injects one fault into a running simulated device where it happens in the field: the network
 * path fails (the fault point drops, blackholes, cuts or answers itself), the device's network
 * goes, the service refuses (a revoked token, a body nested too deep, an operator blocks or
 * deletes the device), the location source fails, the app stops tracking or turns automatic
 * uploads off, the process is killed at whatever its battery is, the battery runs out, the device
 * parks, its clock jumps an hour. The service is told nothing of it.
 */
export async function injectFault(device: SimulatedDevice, fault: Fault, world: FaultWorld): Promise<void> {
  const { provider, clock } = device.faults;
  const pathMode = PATH_MODES(world.retryAfterSeconds)[fault];
  device.fault = fault;
  if (pathMode) {
    world.proxy.mode = pathMode;
    return;
  }
  switch (fault) {
    case 'no-network':
      device.network.set('none');
      break;
    case 'wifi-only-cellular':
      // Configured Wi-Fi-only from the start (device.ts): now it leaves the Wi-Fi.
      device.network.set('cellular');
      break;
    case 'auth-refused':
      await world.service.revokeTokens(device.id);
      break;
    case 'device-blocked':
      await world.service.block(device.id);
      break;
    case 'device-deleted':
      await world.service.remove(device.id);
      break;
    case 'server-refusal':
      // An application's bug from now on: every fix carries extras the service will not take.
      device.extras = nested(TOO_DEEP_EXTRAS);
      break;
    case 'permission-revoked':
      provider.fail('PERMISSION_DENIED');
      break;
    case 'provider-off':
      provider.fail('SOURCE_UNAVAILABLE');
      break;
    case 'no-fix':
      provider.fail('TIMEOUT');
      break;
    case 'tracking-stopped':
      await device.bg.stop();
      break;
    case 'autosync-off':
      await device.bg.setConfig({ http: { autoSync: false } });
      break;
    case 'killed':
      // The process is gone, whatever its battery (never restarted until the run brings it back).
      await device.close();
      break;
    case 'battery-dead':
      // Its fixes carry a falling level until the phone shuts down (device.ts).
      device.runOutOfBattery();
      break;
    case 'parked':
      await device.bg.changePace(false);
      break;
    case 'clock-off':
      clock.offsetMs = CLOCK_OFF_MS;
      break;
  }
}
