import { DEVICE_STATES, type DeviceState } from './decide-state.js';

/**
 * The fleet's devices by health state as Prometheus gauges (text format), appended to /metrics:
 * waypost_devices{state="parked"} 12. Every state is listed, 0 included, so a query never misses one.
 */
export function renderHealthGauges(counts: Record<DeviceState, number>): string {
  return [
    '# HELP waypost_devices Devices (not deleted) by the health state the server names (docs/device-health.md).',
    '# TYPE waypost_devices gauge',
    ...DEVICE_STATES.map((state) => `waypost_devices{state="${state}"} ${counts[state]}`),
    '',
  ].join('\n');
}
