// One device's layers on the map: its trips (one line each), its marker at the newest position,
// its motion-change and geofence event markers, and the geofences it was told to monitor.
// Tooltips and popups are elements built with el(), never HTML strings.
import type { DeviceGeofence, DeviceTrack, RecordedEvent } from './device-data.js';
import { el } from '../base/dom.js';
import { circleTop, fenceLabel } from './fence-label.js';
import { gapText, splitAtGaps, type Bridge, type TrackPoint } from './gaps.js';
import * as fmt from '../settings/format.js';
import type { Range } from '../base/range.js';
import type { Health } from '../replies.js';
import type { Gap } from './gaps.js';
import { STATE_COLOURS } from './vehicle-state.js';
import { VehicleMarker, type Emphasis } from './vehicle-marker.js';

/** Mirrors the server's trip rule for live points: a longer pause starts a new line. */
const LIVE_GAP_MS = 10 * 60_000;

const lineStyle = (mode: Emphasis): L.PathOptions =>
  mode === 'selected'
    ? { weight: 5, opacity: 1 }
    : mode === 'dimmed'
      ? { weight: 3, opacity: 0.3 }
      : { weight: 3, opacity: 0.8 };

/** A position as the device list holds it (its newest, GET /api/dashboard/devices). */
/** A device's last position as the fleet list has it; a fix without a time is placed nowhere. */
type ListedPosition = { latitude: number; longitude: number; timestamp: string | null };

/** The geofence a geofence event's record names ({ action, identifier }), when it names one. */
function crossedFence(record: unknown): { action?: unknown; identifier?: unknown } | null {
  if (typeof record !== 'object' || record === null || !('geofence' in record)) return null;
  const geofence = record.geofence;
  return typeof geofence === 'object' && geofence !== null ? geofence : null;
}

export class DeviceLayer {
  readonly tracks: L.FeatureGroup;
  readonly marker: VehicleMarker;
  /** The solid lines drawn from the records (none while the track comes from tiles). */
  trips: L.Polyline[] = [];
  /** The tile layer of a long history (track-tiles.ts), when it is drawn from tiles. */
  trackTiles: (L.GridLayer & { options: { query: string } }) | null = null;
  private readonly events: L.LayerGroup;
  private readonly fences: L.LayerGroup;
  private lastPoint: TrackPoint | null = null;
  private previousPoint: TrackPoint | null = null;
  private emphasis: Emphasis = 'normal';

  constructor(
    private readonly map: L.Map,
    readonly id: string,
    private readonly colour: string,
    private readonly onSelect: (id: string) => void,
    private readonly label: string = id,
    heardAt: () => number = () => NaN,
    healthOf: () => Health | null | undefined = () => null,
  ) {
    this.tracks = L.featureGroup().addTo(map);
    this.events = L.layerGroup().addTo(map);
    this.fences = L.layerGroup().addTo(map);
    this.marker = new VehicleMarker(map, {
      id,
      label,
      colour,
      onSelect,
      heardAt,
      healthOf,
      tag: (layer, name) => this.tag(layer, name),
    });
  }

  /** Marks a layer's element with the device (and a class) for the page's styles and tests. */
  tag<T extends L.Layer>(layer: T, className: string | null): T {
    const element = 'getElement' in layer && typeof layer.getElement === 'function' ? layer.getElement() : null;
    if (element instanceof Element) {
      element.setAttribute('data-device', this.id);
      if (className) element.classList.add(className);
    }
    return layer;
  }

  /** The track's trips, broken and bridged with a dashed line where the ledger's `gaps` lie. */
  drawTrack(track: DeviceTrack, gaps: Gap[] = []): void {
    this.tracks.clearLayers();
    this.trips = [];
    let previous: TrackPoint | null = null;
    for (const trip of track.trips) {
      const first = trip[0];
      // A gap between two trips (records missing across a pause) is bridged too.
      if (previous && first) for (const bridge of splitAtGaps([previous, first], gaps).bridges) this.addBridge(bridge);
      const { pieces, bridges } = splitAtGaps(trip, gaps);
      for (const piece of pieces) this.addTrip(piece.map((p): L.LatLngTuple => [p[0], p[1]]));
      for (const bridge of bridges) this.addBridge(bridge);
      previous = trip[trip.length - 1] ?? null;
    }
    const last = track.trips[track.trips.length - 1] ?? null;
    this.lastPoint = last?.[last.length - 1] ?? null;
    this.previousPoint = last && last.length > 1 ? (last[last.length - 2] ?? null) : null;
    if (track.newest) this.placeMarker(track.newest.lat, track.newest.lon, track.newest.t, this.previousPoint);
    else this.marker.remove();
    this.setEmphasis(this.emphasis);
  }

  /** Event markers and the device marker over the lines (redrawn lines go on top), so they can be pointed at. */
  raiseMarkers(): void {
    this.events.eachLayer((layer) => (layer as L.Path).bringToFront());
    this.marker.bringToFront();
  }

  addTrip(points: L.LatLngTuple[]): L.Polyline {
    const line = L.polyline(points, { color: this.colour, ...lineStyle(this.emphasis), className: 'trip' });
    line.on('click', () => this.onSelect(this.id));
    line.addTo(this.tracks);
    this.tag(line, 'trip');
    this.trips.push(line);
    return line;
  }

  /** A dashed line over a hole in the record: [p, q, gap]. */
  addBridge([p, q, gap]: Bridge): L.Polyline {
    const line = L.polyline(
      [
        [p[0], p[1]],
        [q[0], q[1]],
      ],
      { color: this.colour, weight: 2, opacity: 0.9, dashArray: '2 7', className: 'gap' },
    );
    line.bindTooltip(el('div', {}, el('strong', {}, this.label), el('div', {}, gapText(gap))));
    line.addTo(this.tracks);
    this.tag(line, 'gap');
    return line;
  }

  placeMarker(latitude: number, longitude: number, t: number, previous: TrackPoint | null = null): void {
    this.marker.place(latitude, longitude, t, previous);
  }

  /**
   * A device drawn without its track (one of many): its marker at its last known position when
   * that falls in the range, else none.
   */
  placeLatest(position: ListedPosition | null | undefined, range: Range): void {
    const t = position?.timestamp ? Date.parse(position.timestamp) : NaN;
    const inRange =
      Number.isFinite(t) && (range.from === null || t >= range.from) && (range.to === null || t <= range.to);
    if (position && inRange) this.placeMarker(position.latitude, position.longitude, t);
    else this.marker.remove();
  }

  /** A live position: extends the newest trip, or starts one after a pause. */
  appendLive(latitude: number, longitude: number, t: number): void {
    const last = this.trips[this.trips.length - 1];
    if (last && this.lastPoint && t - this.lastPoint[2] <= LIVE_GAP_MS) last.addLatLng([latitude, longitude]);
    else if (this.lastPoint)
      this.addTrip([
        [this.lastPoint[0], this.lastPoint[1]],
        [latitude, longitude],
      ]);
    this.previousPoint = this.lastPoint;
    this.lastPoint = [latitude, longitude, t];
    this.placeMarker(latitude, longitude, t, this.previousPoint);
  }

  drawEvents(records: RecordedEvent[]): void {
    this.events.clearLayers();
    for (const record of records) {
      if (typeof record.latitude !== 'number' || typeof record.longitude !== 'number') continue;
      const geofence = crossedFence(record.record);
      const isGeofence = record.event === 'geofence';
      const label = isGeofence
        ? 'geofence ' + fmt.text(geofence?.action) + ' ' + fmt.text(geofence?.identifier)
        : 'motion change: ' + (record.isMoving ? 'moving' : 'stationary');
      const marker = L.circleMarker([record.latitude, record.longitude], {
        radius: 5,
        color: this.colour,
        weight: 2,
        fillColor: isGeofence ? '#ffd400' : record.isMoving ? STATE_COLOURS.moving : STATE_COLOURS.parked,
        fillOpacity: 1,
        className: isGeofence ? 'event-geofence' : 'event-motionchange',
      });
      marker.bindTooltip(
        el('div', {}, el('strong', {}, this.id), el('div', {}, label), el('div', {}, fmt.time(record.recordedAt))),
      );
      marker.bindPopup(el('pre', { className: 'popup-json' }, JSON.stringify(record.record, null, 2)), {
        minWidth: 240,
        maxWidth: 360,
      });
      marker.addTo(this.events);
      this.tag(marker, null);
    }
  }

  drawGeofences(geofences: DeviceGeofence[]): void {
    this.fences.clearLayers();
    for (const fence of geofences) {
      const circle = L.circle([fence.latitude, fence.longitude], {
        radius: fence.radius,
        color: this.colour,
        weight: 1,
        dashArray: '4 4',
        fillOpacity: 0.08,
        className: 'geofence',
      });
      // Built when shown: the radius reads in the unit system chosen at that moment (settings.ts).
      circle.bindTooltip(() =>
        el('div', {}, el('strong', {}, fence.identifier), el('div', {}, this.id + ' · ' + fmt.length(fence.radius))),
      );
      // Its name on the map, always: a fence is read without pointing at it.
      fenceLabel(this.map, circleTop(fence.latitude, fence.longitude, fence.radius), fence.identifier).addTo(
        this.fences,
      );
      circle.addTo(this.fences);
      this.tag(circle, null);
    }
  }

  /** What to fit the map to when this device is selected. */
  bounds(): L.LatLngBounds {
    const bounds = L.latLngBounds([]);
    if (this.tracks.getLayers().length > 0) bounds.extend(this.tracks.getBounds());
    const at = this.marker.latLng();
    if (at) bounds.extend(at);
    return bounds;
  }

  /** Where the device is now (its marker), for fitting a fleet. */
  markerBounds(): L.LatLngBounds | null {
    const at = this.marker.latLng();
    return at ? L.latLngBounds([at]) : null;
  }

  /** Off the map (a device no longer among those drawn). */
  remove(): void {
    this.tracks.remove();
    this.events.remove();
    this.fences.remove();
    this.marker.remove();
  }

  /** 'selected': drawn over every other device, thicker; 'dimmed': another device is selected. */
  setEmphasis(mode: Emphasis): void {
    this.emphasis = mode;
    const style = lineStyle(mode);
    for (const line of this.trips) line.setStyle(style);
    this.tracks.eachLayer((layer) => {
      const element = layer instanceof L.Path ? layer.getElement() : null;
      if (element) element.setAttribute('data-emphasis', mode);
    });
    this.marker.setEmphasis(mode);
    if (mode === 'selected') {
      this.tracks.bringToFront();
      this.raiseMarkers();
    }
  }

  /** The clock moved on: ages and states. */
  refresh(now: number): void {
    this.marker.refresh(now);
  }
}
