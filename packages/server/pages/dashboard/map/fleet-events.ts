// Fleet events on the dashboard (issue 21): the server's geofences on the map (the sinks are
// sinks-panel.js, the editor geofence-editor.js). Everything from the server is text.
import { apiJson } from '../base/api.js';
import { el } from '../base/dom.js';
import * as fmt from '../settings/format.js';
import { circleTop, fenceLabel, polygonTop } from './fence-label.js';
import type { ServerGeofence } from '../replies.js';

const FENCE_STYLE: L.PathOptions = {
  color: '#7b2cbf',
  weight: 2,
  dashArray: '6 4',
  fillOpacity: 0.06,
  className: 'server-geofence',
};

/** A saved geofence's size: its corners, or its radius in the chosen unit system ("150 m", "492 ft"). */
export const fenceSize = (fence: Pick<ServerGeofence, 'vertices' | 'radius'>): string =>
  fence.vertices ? fence.vertices.length + ' corners' : fmt.length(fence.radius);

/** The server-side geofences (POST /api/geofences), drawn for every device. */
export async function drawServerGeofences(map: L.Map, layer: L.LayerGroup): Promise<number> {
  const geofences = (await apiJson('/api/geofences')) as ServerGeofence[];
  layer.clearLayers();
  for (const fence of geofences) {
    const shape = fence.vertices
      ? L.polygon(fence.vertices, FENCE_STYLE)
      : L.circle([fence.latitude, fence.longitude], { ...FENCE_STYLE, radius: fence.radius });
    // Built when shown: the radius reads in the unit system chosen at that moment (settings.js).
    shape.bindTooltip(() =>
      el('div', {}, el('strong', {}, fence.identifier), el('div', {}, 'server geofence · ' + fenceSize(fence))),
    );
    shape.addTo(layer);
    const top = fence.vertices ? polygonTop(fence.vertices) : circleTop(fence.latitude, fence.longitude, fence.radius);
    layer.addLayer(fenceLabel(map, top, fence.identifier));
  }
  if (!map.hasLayer(layer)) layer.addTo(map);
  return geofences.length;
}
