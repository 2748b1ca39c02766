// A large fleet zoomed out: vehicles closer than a cell on screen are drawn as one badge with
// their count instead of a pile of dots and labels; a click on it zooms in to them. The grid is
// in screen pixels, recomputed at each view; the selected vehicle is never folded into a badge.
// grid() is pure: positions in, groups out.
import { el } from '../base/dom.js';

/** Fewer vehicles than this on the map are always drawn one by one. */
export const CLUSTER_MIN_DEVICES = 30;
/** From this zoom on, streets are readable: every vehicle is drawn. */
export const CLUSTER_MAX_ZOOM = 15;
const CELL_PX = 64;

type ScreenPoint = { id: string; x: number; y: number };
type Cluster = { x: number; y: number; ids: string[] };

/** A vehicle as the clusters see it: its marker may be folded into a badge. */
export type ClusteredVehicle = {
  id: string;
  marker: { latLng(): L.LatLng | null; setFolded(folded: boolean): void };
};

/**
 * points: [{ id, x, y }] in pixels. Cells holding two or more become { x, y, ids } at the cell's
 * centre (badges one cell apart never cover each other, as badges at their vehicles' mean would).
 */
export function grid(points: ScreenPoint[], cell = CELL_PX): { clusters: Cluster[]; singles: string[] } {
  const cells = new Map<string, ScreenPoint[]>();
  for (const point of points) {
    const key = Math.floor(point.x / cell) + ':' + Math.floor(point.y / cell);
    const group = cells.get(key);
    if (group) group.push(point);
    else cells.set(key, [point]);
  }
  const clusters: Cluster[] = [];
  const singles: string[] = [];
  for (const [key, group] of cells) {
    if (group.length === 1) singles.push((group[0] as ScreenPoint).id);
    else {
      const [column = 0, row = 0] = key.split(':').map(Number);
      clusters.push({ x: (column + 0.5) * cell, y: (row + 0.5) * cell, ids: group.map((p) => p.id) });
    }
  }
  return { clusters, singles };
}

export class FleetClusters {
  private readonly map: L.Map;
  private readonly badges: L.LayerGroup;

  constructor(map: L.Map) {
    this.map = map;
    this.badges = L.layerGroup().addTo(map);
  }

  /** vehicles: [{ id, marker }] (VehicleMarker, placed or not); selected: an id or null. */
  update(vehicles: ClusteredVehicle[], selected: string | null): void {
    this.badges.clearLayers();
    const placed = vehicles.flatMap((v) => {
      const at = v.marker.latLng();
      return at ? [{ ...v, at }] : [];
    });
    const on = placed.length >= CLUSTER_MIN_DEVICES && this.map.getZoom() < CLUSTER_MAX_ZOOM;
    const points = on
      ? placed.filter((v) => v.id !== selected).map((v) => ({ id: v.id, ...this.map.latLngToLayerPoint(v.at) }))
      : [];
    const { clusters } = grid(points);
    const folded = new Set(clusters.flatMap((c) => c.ids));
    for (const v of placed) v.marker.setFolded(folded.has(v.id));
    for (const cluster of clusters) {
      const at = this.map.layerPointToLatLng([cluster.x, cluster.y]);
      const badge = el(
        'div',
        { className: 'vehicle-cluster', title: cluster.ids.length + ' vehicles' },
        String(cluster.ids.length),
      );
      L.marker(at, {
        icon: L.divIcon({
          className: 'vehicle-cluster-icon',
          html: badge,
          iconSize: null as unknown as L.PointExpression,
        }),
        keyboard: false,
      })
        .on('click', () => this.map.setView(at, Math.min(this.map.getZoom() + 2, CLUSTER_MAX_ZOOM)))
        .addTo(this.badges);
    }
  }
}
