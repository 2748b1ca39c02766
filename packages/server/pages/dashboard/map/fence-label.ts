// A geofence's name on the map, always shown (issue 42): text, never HTML. Vehicles park at a
// depot's centre, where the name used to be drawn over their labels. So the name sits just above
// the fence's top edge: every point inside the fence is south of it, so it never covers a vehicle
// parked in the fence. And it lies in a pane of its own under the marker pane: a vehicle's label
// near the edge (or passing north of it) is drawn over the name, never under it.
import { el } from '../base/dom.js';

const PANE = 'fenceLabels';
/**
 * Above the overlay pane (400: fence outlines, tracks), so a name stays readable over a busy route;
 * below the marker pane (600: vehicle labels, cluster badges), tooltips (650) and popups (700).
 */
const PANE_Z = '450';
/** The Earth's radius Leaflet measures circles with (L.CRS.Earth.R, untyped), in metres. */
const EARTH_RADIUS = 6_371_000;

/** The names' pane, made once per map. */
function paneOf(map: L.Map): string {
  if (!map.getPane(PANE)) {
    const pane = map.createPane(PANE);
    pane.style.zIndex = PANE_Z; // CSSOM, allowed under style-src 'self'
  }
  return PANE;
}

/**
 * The top of a circle as Leaflet draws it on the Earth CRS (L.Circle: its radius in degrees of
 * latitude over the Earth's radius), so the name rests on the drawn outline.
 */
export function circleTop(latitude: number, longitude: number, radius: number): L.LatLngTuple {
  return [latitude + ((radius / EARTH_RADIUS) * 180) / Math.PI, longitude];
}

/** The top of a polygon: its northernmost latitude, above the middle of its width. */
export function polygonTop(vertices: L.LatLngExpression[]): L.LatLngTuple {
  const bounds = L.latLngBounds(vertices);
  return [bounds.getNorth(), bounds.getCenter().lng];
}

/** A fence's name, its bottom centred on `top` (the fence's top edge: circleTop, polygonTop). */
export function fenceLabel(map: L.Map, top: L.LatLngExpression, name: string): L.Marker {
  return L.marker(top, {
    pane: paneOf(map),
    icon: L.divIcon({
      className: 'geofence-label-icon',
      html: el('span', { className: 'geofence-label' }, name),
      iconSize: null as unknown as L.PointExpression,
    }),
    interactive: false,
    keyboard: false,
  });
}
