/* global L */
// The server's own geofences (issue 21: evaluated on ingest for every device, managed with
// /api/geofences): drawn in grey under the devices' lines, circles and polygons, named in tooltips.
import { apiJson } from './api.js';
import { el } from './dom.js';

const STYLE = { color: '#4b5563', weight: 2, dashArray: '6 4', fillOpacity: 0.06, interactive: true };

export async function drawServerGeofences(map) {
  const geofences = await apiJson('/api/geofences');
  const layer = L.layerGroup().addTo(map);
  for (const fence of geofences) {
    const shape =
      Array.isArray(fence.vertices) && fence.vertices.length >= 3
        ? L.polygon(fence.vertices, { ...STYLE, className: 'server-geofence' })
        : L.circle([fence.latitude, fence.longitude], { ...STYLE, radius: fence.radius, className: 'server-geofence' });
    shape.bindTooltip(el('div', {}, el('strong', {}, fence.identifier), el('div', {}, 'server geofence')));
    shape.addTo(layer);
    const element = shape.getElement();
    if (element) element.setAttribute('data-geofence', fence.identifier);
  }
  return layer;
}
