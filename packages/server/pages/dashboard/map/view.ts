// The first view: fitted to the devices that are active now, so a fleet in one city opens on that
// city rather than on an ocean between it and a device that stopped reporting months ago. And the
// map's other framing: a picked record ringed, and the empty state.
import { $, el } from '../base/dom.js';
import * as fmt from '../settings/format.js';
import type { DeviceInfo } from '../device-info.js';
import type { FitInsets } from './fit-insets.js';

export { fitInsets } from './fit-insets.js'; // the padding a fit takes, with fitTo

/** A device on the map: its info and, once drawn, its layer. */
export type PlacedDevice = {
  info: DeviceInfo;
  layer?: { markerBounds(): L.LatLngBounds | null; bounds(): L.LatLngBounds } | null;
};

/** A device reporting within this long of the newest report counts as active. */
export const ACTIVE_MS = 24 * 3600_000;

const reportedAt = (info: DeviceInfo): number =>
  info.lastPosition?.timestamp ? Date.parse(info.lastPosition.timestamp) : NaN;

/**
 * The active devices: not blocked or deleted, positioned, and reporting within ACTIVE_MS of the
 * newest report (relative to the data, so a replayed day from last year still opens on its city).
 */
export function activeDevices(infos: DeviceInfo[]): DeviceInfo[] {
  const placed = infos.filter((info) => info.status === 'active' && Number.isFinite(reportedAt(info)));
  if (placed.length === 0) return [];
  const newest = Math.max(...placed.map(reportedAt));
  return placed.filter((info) => reportedAt(info) >= newest - ACTIVE_MS);
}

/**
 * Fits the map to these devices: to the one's track when there is one device, else to their
 * markers (the newest position of each in the range), inside these insets when something covers
 * the map's edges (fit-insets.ts). Returns whether there was anything to fit.
 */
export function fitTo(map: L.Map, devices: PlacedDevice[], insets: FitInsets | null = null): boolean {
  const bounds = L.latLngBounds([]);
  for (const device of devices) {
    const layerBounds = device.layer ? device.layer.markerBounds() : null;
    if (layerBounds && layerBounds.isValid()) bounds.extend(layerBounds);
    else if (device.info.lastPosition)
      bounds.extend([device.info.lastPosition.latitude, device.info.lastPosition.longitude]);
  }
  const only = devices.length === 1 ? devices[0]?.layer : null;
  if (only) {
    const own = only.bounds();
    if (own.isValid()) bounds.extend(own);
  }
  if (!bounds.isValid()) return false;
  if (insets) map.fitBounds(bounds, { maxZoom: 15, animate: false, ...insets });
  else map.fitBounds(bounds.pad(0.15), { maxZoom: 15, animate: false });
  return true;
}

/** Fits the map to the active devices among these (activeDevices), by their markers or positions. */
export function fitToActive(map: L.Map, devices: PlacedDevice[]): boolean {
  const active = new Set(activeDevices(devices.map((device) => device.info)).map((info) => info.id));
  return fitTo(
    map,
    devices.filter((device) => active.has(device.info.id)),
  );
}

let focusMarker: L.CircleMarker | null = null;

/** A record picked in a table: ringed on the map, which pans to it. */
export function focusOn(map: L.Map, record: { latitude?: unknown; longitude?: unknown; recordedAt: number }): void {
  if (typeof record.latitude !== 'number' || typeof record.longitude !== 'number') return;
  const point: L.LatLngTuple = [record.latitude, record.longitude];
  if (!focusMarker) {
    focusMarker = L.circleMarker(point, {
      radius: 12,
      color: '#000',
      weight: 2,
      fill: false,
      className: 'record-focus',
    }).addTo(map);
  } else focusMarker.setLatLng(point);
  focusMarker.bindTooltip(el('div', {}, fmt.time(record.recordedAt)));
  map.panTo(point);
}

/** No devices yet: say how to get one instead of showing an empty map. */
export function showEmptyHint(empty: boolean): void {
  $('empty-state').hidden = !empty;
  if (empty)
    for (const span of document.querySelectorAll('#empty-state .origin')) span.textContent = window.location.origin;
}
