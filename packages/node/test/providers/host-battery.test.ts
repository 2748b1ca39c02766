import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BATTERY_CACHE_MS, createBatteryReader, readBattery, type Location } from '@waypost/node';
import { openSdk, tempDir } from '../support/harness.js';

function tree(supplies: Record<string, Record<string, string>>): string {
  const dir = tempDir('waypost-power-');
  for (const [name, files] of Object.entries(supplies)) {
    mkdirSync(join(dir, name));
    for (const [file, value] of Object.entries(files)) writeFileSync(join(dir, name, file), `${value}\n`);
  }
  return dir;
}

describe('battery from /sys/class/power_supply', () => {
  it('a discharging laptop battery', () => {
    const dir = tree({
      AC: { type: 'Mains', online: '0' },
      BAT0: { type: 'Battery', capacity: '57', status: 'Discharging' },
    });
    expect(readBattery(dir)).toEqual({ level: 0.57, is_charging: false });
  });

  it('charging, or full on mains power, counts as charging; a mouse battery is not the host', () => {
    const dir = tree({
      AC: { type: 'Mains', online: '1' },
      BAT0: { type: 'Battery', capacity: '100', status: 'Full' },
      hidpp_battery_0: { type: 'Battery', scope: 'Device', capacity: '5', status: 'Discharging' },
    });
    expect(readBattery(dir)).toEqual({ level: 1, is_charging: true });
  });

  it('two batteries are combined by energy', () => {
    const dir = tree({
      BAT0: {
        type: 'Battery',
        capacity: '100',
        energy_now: '20000000',
        energy_full: '20000000',
        status: 'Discharging',
      },
      BAT1: { type: 'Battery', capacity: '0', energy_now: '0', energy_full: '60000000', status: 'Discharging' },
    });
    expect(readBattery(dir)).toEqual({ level: 0.25, is_charging: false });
  });

  it('a host without a battery reports -1 (unknown), plugged in when mains is online', () => {
    expect(readBattery(tree({ AC: { type: 'Mains', online: '1' } }))).toEqual({ level: -1, is_charging: true });
    expect(readBattery('/nonexistent/power_supply')).toEqual({ level: -1, is_charging: false });
  });
});

describe('host battery on records', () => {
  it('records whose input has no battery carry the host battery; an explicit battery wins', async () => {
    const bg = await openSdk({ battery: () => ({ level: 0.42, is_charging: true }) });
    await bg.ready({ http: { autoSync: false } });
    await bg.start();
    const fromHost = await bg.recordLocation({ latitude: 1, longitude: 2 });
    const given = await bg.recordLocation({ latitude: 1, longitude: 2, battery: { level: 0.9, is_charging: false } });
    expect(fromHost.battery).toEqual({ level: 0.42, is_charging: true });
    expect(given.battery).toEqual({ level: 0.9, is_charging: false });
    const stored = (await bg.getLocations()) as Location[];
    expect(stored.map((r) => r.battery.level)).toEqual([0.42, 0.9]);
  });

  it('the sysfs reader is read again only after BATTERY_CACHE_MS', () => {
    const dir = tree({ BAT0: { type: 'Battery', capacity: '80', status: 'Discharging' } });
    let now = 0;
    const read = createBatteryReader(() => now, dir);
    expect(read().level).toBe(0.8);
    writeFileSync(join(dir, 'BAT0', 'capacity'), '79\n');
    now = BATTERY_CACHE_MS - 1;
    expect(read().level).toBe(0.8);
    now = BATTERY_CACHE_MS;
    expect(read().level).toBe(0.79);
  });
});
