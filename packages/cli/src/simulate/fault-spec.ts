import { nearestKey } from '@waypost/sdk/internal';
import { FAULT_NAMES, FAULTS, type Fault } from './faults.js';

/** Devices one --faults spec may ask for. */
export const MAX_FAULT_DEVICES = 1000;

/**
 * `--faults SPEC` (docs/device-health.md, "Fault simulation"): a comma-separated list of classes,
 * each optionally `=N` for N devices of that class (default 1); `all` stands for every class
 * (`all=N`: N devices of each). Devices are numbered in the order given: `no-network=2,parked`
 * makes devices 1 and 2 lose their network and parks device 3. Returns one class per device, in order.
 * Throws an Error whose message names the bad part (and the nearest class for a misspelt one).
 */
export function parseFaultSpec(spec: string): Fault[] {
  const devices: Fault[] = [];
  const parts = spec.split(',').map((part) => part.trim());
  if (parts.every((part) => part === ''))
    throw new Error('names no class (for instance --faults all, or no-network=2,parked)');
  for (const part of parts) {
    if (part === '') throw new Error(`has an empty entry in "${spec.slice(0, 80)}"`);
    const match = /^([a-z-]+)(?:=(\d+))?$/i.exec(part);
    if (!match) throw new Error(`entry "${part.slice(0, 40)}" is not CLASS or CLASS=N`);
    const name = match[1]!.toLowerCase();
    const count = match[2] === undefined ? 1 : Number(match[2]);
    if (count < 1) throw new Error(`entry "${part}" asks for no device (N is at least 1)`);
    const classes = name === 'all' ? FAULT_NAMES : [known(name)];
    for (const fault of classes) for (let n = 0; n < count; n++) devices.push(fault);
    if (devices.length > MAX_FAULT_DEVICES) throw new Error(`asks for more than ${MAX_FAULT_DEVICES} devices`);
  }
  return devices;
}

function known(name: string): Fault {
  if (name in FAULTS) return name as Fault;
  const nearest = nearestKey(name, [...FAULT_NAMES, 'all']);
  throw new Error(
    `unknown class "${name.slice(0, 40)}"${nearest ? `; did you mean ${nearest}?` : ''} (classes: ${FAULT_NAMES.join(', ')}, all)`,
  );
}
