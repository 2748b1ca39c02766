import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The record's battery fields: level 0..1 (-1 unknown) and whether it is charging. */
export interface BatteryFacts {
  level: number;
  is_charging: boolean;
}

export const POWER_SUPPLY_DIR = '/sys/class/power_supply';

const read = (path: string): string | null => {
  try {
    return readFileSync(path, 'utf8').trim();
  } catch {
    return null;
  }
};

/**
 * Reads the host's battery from sysfs (the kernel's power_supply class). Several batteries are
 * combined by energy when the kernel reports it, else averaged. "Charging" is true while any
 * battery charges, or while on mains power with a full battery, which is what the anchor's
 * `is_charging` means to a server (plugged in). A host without a battery reports level -1 and
 * is_charging true when a mains supply is online. `dir` is a parameter so tests use a fake tree.
 */
export function readBattery(dir: string = POWER_SUPPLY_DIR): BatteryFacts {
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return { level: -1, is_charging: false };
  }
  const levels: number[] = [];
  let energyNow = 0;
  let energyFull = 0;
  let energyKnown = true;
  let charging = false;
  let mainsOnline = false;
  for (const name of entries) {
    const base = join(dir, name);
    const type = read(join(base, 'type'));
    if (type === 'Mains' || type === 'USB') {
      if (read(join(base, 'online')) === '1') mainsOnline = true;
      continue;
    }
    if (type !== 'Battery' || read(join(base, 'scope')) === 'Device') continue;
    const capacity = Number(read(join(base, 'capacity')));
    if (Number.isFinite(capacity) && read(join(base, 'capacity')) !== null)
      levels.push(Math.min(100, Math.max(0, capacity)));
    const now = Number(read(join(base, 'energy_now')) ?? read(join(base, 'charge_now')));
    const full = Number(read(join(base, 'energy_full')) ?? read(join(base, 'charge_full')));
    if (Number.isFinite(now) && Number.isFinite(full) && full > 0) {
      energyNow += now;
      energyFull += full;
    } else {
      energyKnown = false;
    }
    const status = read(join(base, 'status'));
    if (status === 'Charging' || status === 'Full') charging = true;
  }
  if (levels.length === 0) return { level: -1, is_charging: mainsOnline };
  const level =
    energyKnown && energyFull > 0 && levels.length > 1
      ? energyNow / energyFull
      : levels.reduce((a, b) => a + b, 0) / levels.length / 100;
  return { level: Math.round(level * 100) / 100, is_charging: charging || mainsOnline };
}

/** sysfs reads are cheap but not free; a battery level a minute old is as good on a record. */
export const BATTERY_CACHE_MS = 60_000;

/** A battery reader for the SDK that reads sysfs at most once per BATTERY_CACHE_MS of `now()`. */
export function createBatteryReader(now: () => number, dir: string = POWER_SUPPLY_DIR): () => BatteryFacts {
  let cached: { at: number; facts: BatteryFacts } | null = null;
  return () => {
    const t = now();
    if (!cached || t - cached.at >= BATTERY_CACHE_MS || t < cached.at) cached = { at: t, facts: readBattery(dir) };
    return cached.facts;
  };
}
