// The devices the page holds: what the list says of each (its info), and what the map drew of it
// (its layer, its track). A device joins the list, the command form and, up to MAP_DEVICES, the map.
import { colourOf } from '../base/colour.js';
import { addCommandDevices } from '../device/commands.js';
import type { DeviceTrack } from '../map/device-data.js';
import { DeviceLayer } from '../map/tracks.js';
import type { DeviceInfo } from '../device-info.js';
import { LiveDuringLoad } from './live-during-load.js';

/** Devices drawn on the map at most (the most recently seen, and the selected one): the list holds all. */
export const MAP_DEVICES = 200;
/** Of those, the devices whose tracks are loaded at start; the others show their newest position. */
export const TRACKED_DEVICES = 25;

/** A device as the page holds it: what the list says, and what the map drew of it. */
export type Device = {
  info: DeviceInfo;
  layer: DeviceLayer | null;
  track: DeviceTrack | null;
  /** Its track and overlays are loaded (else only its newest position is drawn). */
  tracked: boolean;
  colour: string;
  /** Track loads started: only the newest one draws. */
  loads: number;
  /** The live positions told while its track loads (drawn after the load's answer). */
  live: LiveDuringLoad;
};
/** A device on the map. */
export type DrawnDevice = Device & { layer: DeviceLayer };

/** A device the live feed names before the fleet list has it: nothing known of it yet. */
export const unlistedDevice = (id: string): DeviceInfo => ({
  id,
  name: null,
  model: null,
  createdAt: null,
  lastSeen: null,
  status: 'active',
  records: 0,
  duplicates: 0,
  quarantined: 0,
  lastPosition: null,
});

export const labelOf = (info: DeviceInfo): string => info.name || info.id;
const isDrawn = (device: Device): device is DrawnDevice => device.layer !== null;

export class FleetDevices {
  readonly all = new Map<string, Device>();
  /** New devices' command-form options, added together once the current batch is done. */
  private pendingOptions: { id: string; label: string }[] = [];

  /** listed(id): a device joined; changed(id): a device's info changed (the list redraws its row). */
  constructor(private readonly list: { add(id: string): void; changed(id: string): void }) {}

  ensure(info: DeviceInfo): Device {
    let device = this.all.get(info.id);
    if (!device) {
      device = {
        info,
        layer: null,
        track: null,
        tracked: false,
        colour: colourOf(info.id),
        loads: 0,
        live: new LiveDuringLoad(),
      };
      this.all.set(info.id, device);
      this.list.add(info.id);
      this.pendingOptions.push({ id: info.id, label: labelOf(info) });
      if (this.pendingOptions.length === 1) queueMicrotask(() => this.flushOptions());
    } else {
      device.info = { ...device.info, ...info };
      this.list.changed(info.id);
    }
    return device;
  }

  private flushOptions(): void {
    addCommandDevices(this.pendingOptions);
    this.pendingOptions = [];
  }

  drawn(): DrawnDevice[] {
    return [...this.all.values()].filter(isDrawn);
  }

  tracked(): DrawnDevice[] {
    return this.drawn().filter((device) => device.tracked);
  }

  /** Puts a device on the map (its layer), unless the map holds MAP_DEVICES already (`force`: even then). */
  draw(device: Device, map: L.Map, onSelect: (id: string) => void, force = false): device is DrawnDevice {
    if (device.layer) return true;
    if (!force && this.drawn().length >= MAP_DEVICES) return false;
    const heardAt = (): number => (device.info.lastSeen ? Date.parse(device.info.lastSeen) : NaN);
    const healthOf = () => device.info.health;
    const label = labelOf(device.info);
    device.layer = new DeviceLayer(map, device.info.id, device.colour, onSelect, label, heardAt, healthOf);
    return true;
  }
}
