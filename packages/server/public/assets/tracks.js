/* global L */
// One device's layers on the map: its trips (one line each), its marker at the newest position,
// its motion-change and geofence event markers, and the geofences it was told to monitor.
// Tooltips and popups are elements built with el(), never HTML strings.
import { el } from './dom.js';
import { fenceLabel } from './fleet-events.js';
import { gapText, splitAtGaps } from './gaps.js';
import * as fmt from './format.js';
import { STATE_COLOURS } from './vehicle-state.js';
import { VehicleMarker } from './vehicle-marker.js';

/** Mirrors the server's trip rule for live points: a longer pause starts a new line. */
const LIVE_GAP_MS = 10 * 60_000;

const lineStyle = (mode) =>
  mode === 'selected'
    ? { weight: 5, opacity: 1 }
    : mode === 'dimmed'
      ? { weight: 3, opacity: 0.3 }
      : { weight: 3, opacity: 0.8 };

export class DeviceLayer {
  constructor(map, id, colour, onSelect, label = id, heardAt = () => NaN, healthOf = () => null) {
    this.map = map;
    this.id = id;
    this.label = label;
    this.colour = colour;
    this.onSelect = onSelect;
    this.tracks = L.featureGroup().addTo(map);
    this.events = L.layerGroup().addTo(map);
    this.fences = L.layerGroup().addTo(map);
    this.trips = [];
    this.marker = new VehicleMarker(map, {
      id,
      label,
      colour,
      onSelect,
      heardAt,
      healthOf,
      tag: (layer, name) => this.tag(layer, name),
    });
    this.lastPoint = null;
    this.previousPoint = null;
    this.emphasis = 'normal';
  }

  tag(layer, className) {
    const element = layer.getElement && layer.getElement();
    if (element) {
      element.setAttribute('data-device', this.id);
      if (className) element.classList.add(className);
    }
    return layer;
  }

  /** The track's trips, broken and bridged with a dashed line where the ledger's `gaps` lie. */
  drawTrack(track, gaps = []) {
    this.tracks.clearLayers();
    this.trips = [];
    let previous = null;
    for (const trip of track.trips) {
      // A gap between two trips (records missing across a pause) is bridged too.
      if (previous) for (const bridge of splitAtGaps([previous, trip[0]], gaps).bridges) this.addBridge(bridge);
      const { pieces, bridges } = splitAtGaps(trip, gaps);
      for (const piece of pieces) this.addTrip(piece.map((p) => [p[0], p[1]]));
      for (const bridge of bridges) this.addBridge(bridge);
      previous = trip[trip.length - 1];
    }
    const last = track.trips.length > 0 ? track.trips[track.trips.length - 1] : null;
    this.lastPoint = last ? last[last.length - 1] : null;
    this.previousPoint = last && last.length > 1 ? last[last.length - 2] : null;
    if (track.newest) this.placeMarker(track.newest.lat, track.newest.lon, track.newest.t, this.previousPoint);
    else this.marker.remove();
    this.setEmphasis(this.emphasis);
  }

  /** Event markers and the device marker over the lines (redrawn lines go on top), so they can be pointed at. */
  raiseMarkers() {
    this.events.eachLayer((layer) => layer.bringToFront());
    this.marker.bringToFront();
  }

  addTrip(points) {
    const line = L.polyline(points, { color: this.colour, ...lineStyle(this.emphasis), className: 'trip' });
    line.on('click', () => this.onSelect(this.id));
    line.addTo(this.tracks);
    this.tag(line, 'trip');
    this.trips.push(line);
    return line;
  }

  /** A dashed line over a hole in the record: [p, q, gap]. */
  addBridge([p, q, gap]) {
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

  placeMarker(latitude, longitude, t, previous = null) {
    this.marker.place(latitude, longitude, t, previous);
  }

  /**
   * A device drawn without its track (one of many): its marker at its last known position when
   * that falls in the range, else none.
   */
  placeLatest(position, range) {
    const t = position ? Date.parse(position.timestamp) : NaN;
    const inRange =
      Number.isFinite(t) && (range.from === null || t >= range.from) && (range.to === null || t <= range.to);
    if (inRange) this.placeMarker(position.latitude, position.longitude, t);
    else this.marker.remove();
  }

  /** A live position: extends the newest trip, or starts one after a pause. */
  appendLive(latitude, longitude, t) {
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

  drawEvents(records) {
    this.events.clearLayers();
    for (const record of records) {
      if (typeof record.latitude !== 'number' || typeof record.longitude !== 'number') continue;
      const geofence = record.record && typeof record.record === 'object' ? record.record.geofence : null;
      const isGeofence = record.event === 'geofence';
      const label = isGeofence
        ? 'geofence ' + fmt.text(geofence && geofence.action) + ' ' + fmt.text(geofence && geofence.identifier)
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

  drawGeofences(geofences) {
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
      // Built when shown: the radius reads in the unit system chosen at that moment (settings.js).
      circle.bindTooltip(() =>
        el('div', {}, el('strong', {}, fence.identifier), el('div', {}, this.id + ' · ' + fmt.length(fence.radius))),
      );
      // Its name on the map, always: a fence is read without pointing at it.
      fenceLabel([fence.latitude, fence.longitude], fence.identifier).addTo(this.fences);
      circle.addTo(this.fences);
      this.tag(circle, null);
    }
  }

  /** What to fit the map to when this device is selected. */
  bounds() {
    const bounds = L.latLngBounds([]);
    if (this.tracks.getLayers().length > 0) bounds.extend(this.tracks.getBounds());
    if (this.marker.latLng()) bounds.extend(this.marker.latLng());
    return bounds;
  }

  /** Where the device is now (its marker), for fitting a fleet. */
  markerBounds() {
    const at = this.marker.latLng();
    return at ? L.latLngBounds([at]) : null;
  }

  /** Off the map (a device no longer among those drawn). */
  remove() {
    this.tracks.remove();
    this.events.remove();
    this.fences.remove();
    this.marker.remove();
  }

  /** 'selected': drawn over every other device, thicker; 'dimmed': another device is selected. */
  setEmphasis(mode) {
    this.emphasis = mode;
    const style = lineStyle(mode);
    for (const line of this.trips) line.setStyle(style);
    this.tracks.eachLayer((layer) => {
      const element = layer.getElement && layer.getElement();
      if (element) element.setAttribute('data-emphasis', mode);
    });
    this.marker.setEmphasis(mode);
    if (mode === 'selected') {
      this.tracks.bringToFront();
      this.raiseMarkers();
    }
  }

  /** The clock moved on: ages and states. */
  refresh(now) {
    this.marker.refresh(now);
  }
}
