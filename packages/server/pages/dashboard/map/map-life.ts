// What keeps the map true as time passes and the address changes: ages and states redrawn each
// half minute, the device named in the address (#device=<id>) selected when it changes on an open
// page (and written there when one is picked, so the address can be shared), and names hidden at
// a world view where they would cover each other (the selected one stays).

import { FleetClusters, type ClusteredVehicle } from './clusters.js';

/** A drawn device as the map's upkeep sees it (tracks.js's DeviceLayer). */
export type LivingLayer = { id: string; marker: ClusteredVehicle['marker']; refresh(now: number): void };

const AGE_REFRESH_MS = 30_000;
/** Below this zoom only the selected vehicle's label shows. */
const LABELS_MIN_ZOOM = 6;

export const deviceInAddress = (): string | null => new URLSearchParams(window.location.hash.slice(1)).get('device');

/** Calls onDevice(id) when the address names another device than `current()`. */
export function watchAddress(current: () => string | null, onDevice: (id: string) => void): void {
  window.addEventListener('hashchange', () => {
    const wanted = deviceInAddress();
    if (wanted && wanted !== current()) onDevice(wanted);
  });
}

/** Puts the selected device into the address without a new history entry. */
export function writeAddress(id: string): void {
  if (deviceInAddress() === id) return;
  window.history.replaceState(null, '', '#device=' + encodeURIComponent(id));
}

export function keepAgesFresh(layers: () => Iterable<LivingLayer>): void {
  setInterval(() => {
    const now = Date.now();
    for (const layer of layers()) layer.refresh(now);
  }, AGE_REFRESH_MS);
}

export function labelsByZoom(map: L.Map): void {
  const follow = () => map.getContainer().classList.toggle('labels-far', map.getZoom() < LABELS_MIN_ZOOM);
  map.on('zoomend', follow);
  follow();
}

/**
 * Clusters a large fleet at each view (clusters.js); returns the function that redraws them after
 * the vehicles moved or the selection changed. vehicles(): [{ id, marker }]; selected(): an id.
 */
export function clusterFleet(
  map: L.Map,
  vehicles: () => ClusteredVehicle[],
  selected: () => string | null,
): () => void {
  const clusters = new FleetClusters(map);
  let pending: ReturnType<typeof setTimeout> | null = null;
  const update = () => {
    if (pending) return;
    pending = setTimeout(() => {
      pending = null;
      clusters.update(vehicles(), selected());
    }, 50);
  };
  map.on('zoomend moveend', update);
  return update;
}

/**
 * All of it for the dashboard's map: layers() the drawn DeviceLayers, selected() the selected id,
 * select(id) to follow the address. Returns the function that reclusters after a change.
 */
export function startMapLife(
  map: L.Map,
  {
    layers,
    selected,
    select,
  }: { layers: () => LivingLayer[]; selected: () => string | null; select: (id: string) => void },
): () => void {
  labelsByZoom(map);
  keepAgesFresh(layers);
  watchAddress(selected, select);
  return clusterFleet(map, () => layers().map((layer) => ({ id: layer.id, marker: layer.marker })), selected);
}
