// History playback for the selected device: a time slider over the range (or one trip) and
// play/pause, the marker moving along the simplified track at a chosen speed. Positions between
// two points of a trip are interpolated; between trips the marker waits where the last one ended.
import { apiJson } from '../base/api.js';
import type { DeviceTrack } from '../map/device-data.js';
import { $, el } from '../base/dom.js';
import * as fmt from '../settings/format.js';
import type { TrackPoint } from '../map/gaps.js';
import { PHONE_QUERY } from '../base/sheet.js';

/** Without a chosen speed, a range plays in about this long. */
const AUTO_PLAY_MS = 60_000;
/** Detail asked of the server for playback: streets, not pixels of the current view. */
const PLAYBACK_ZOOM = 16;

/** Where the device was at time t: a pure function of the trips ([[lat, lon, t], ...] each). */
export function positionAt(trips: TrackPoint[][], t: number): TrackPoint | null {
  let last: TrackPoint | null = null;
  for (const trip of trips) {
    const first = trip[0];
    const end = trip[trip.length - 1];
    if (!first || !end) continue;
    if (t < first[2]) return last ?? first;
    if (t <= end[2]) {
      let lo = 0;
      let hi = trip.length - 1;
      while (hi - lo > 1) {
        const mid = (lo + hi) >> 1;
        if ((trip[mid] as TrackPoint)[2] <= t) lo = mid;
        else hi = mid;
      }
      const a = trip[lo] as TrackPoint;
      const b = trip[hi] as TrackPoint;
      if (t >= b[2]) return b;
      const f = b[2] === a[2] ? 0 : (t - a[2]) / (b[2] - a[2]);
      return [a[0] + (b[0] - a[0]) * f, a[1] + (b[1] - a[1]) * f, t];
    }
    last = end;
  }
  return last;
}

const slider = (): HTMLInputElement => $<HTMLInputElement>('playback-slider');

export class Playback {
  private trips: TrackPoint[][] = [];
  private from = 0;
  private to = 0;
  private t = 0;
  private frame = 0;
  private marker: L.CircleMarker | null = null;
  private generation = 0;
  private deviceId: string | null = null;

  constructor(private readonly map: L.Map) {
    const bar = playbackBar();
    // On a phone the sheet covers the map's lower part: the bar goes to its top.
    const phone = window.matchMedia(PHONE_QUERY);
    const corner = (): L.ControlPosition => (phone.matches ? 'topright' : 'bottomright');
    const control = new L.Control({ position: corner() });
    control.onAdd = () => bar;
    control.addTo(map);
    phone.addEventListener('change', () => control.setPosition(corner()));
    L.DomEvent.disableClickPropagation(bar);
    L.DomEvent.disableScrollPropagation(bar);
    $('playback-toggle').addEventListener('click', () => (this.frame ? this.pause() : this.play()));
    slider().addEventListener('input', () => {
      this.pause();
      this.seek(this.from + Number(slider().value));
    });
    $('playback-close').addEventListener('click', () => this.hide());
  }

  /** One trip's window, read at street detail, shown from its start. */
  async load(deviceId: string, colour: string, from: number, to: number): Promise<void> {
    const generation = ++this.generation;
    this.pause();
    const params = new URLSearchParams({ zoom: String(PLAYBACK_ZOOM), from: String(from), to: String(to) });
    const path = '/api/dashboard/devices/' + encodeURIComponent(deviceId) + '/track?' + params.toString();
    const track = (await apiJson(path)) as DeviceTrack;
    if (generation !== this.generation) return;
    this.show(deviceId, colour, track.trips, null);
  }

  /**
   * The track the map already holds for the selected device and range (no second read of it): the
   * bar over its whole time, kept at the same moment when the same device's track is redrawn.
   */
  useTrack(deviceId: string, colour: string, trips: TrackPoint[][]): void {
    if (this.frame) return; // playing: the track it plays stays
    this.generation++;
    this.show(deviceId, colour, trips, deviceId === this.deviceId ? this.t : null);
  }

  private show(deviceId: string, colour: string, trips: TrackPoint[][], at: number | null): void {
    this.trips = trips;
    const points = trips.flat();
    const first = points[0];
    const last = points[points.length - 1];
    if (!first || !last) {
      this.hide();
      return;
    }
    this.deviceId = deviceId;
    this.from = first[2];
    this.to = last[2];
    slider().max = String(this.to - this.from);
    slider().step = '1000';
    $('playback-title').textContent = fmt.time(this.from) + ' → ' + fmt.time(this.to);
    if (this.marker) this.marker.remove();
    this.marker = L.circleMarker([first[0], first[1]], {
      radius: 9,
      color: '#111',
      weight: 3,
      fillColor: colour,
      fillOpacity: 1,
      className: 'playback-marker',
    }).addTo(this.map);
    $('playback').hidden = false;
    this.seek(at === null ? this.from : at);
  }

  /** Its times again, as the settings now say (local time or UTC). */
  redraw(): void {
    if ($('playback').hidden) return;
    $('playback-title').textContent = fmt.time(this.from) + ' → ' + fmt.time(this.to);
    $('playback-time').textContent = fmt.time(this.t);
  }

  private seek(t: number): void {
    this.t = Math.min(this.to, Math.max(this.from, t));
    const at = positionAt(this.trips, this.t);
    if (at && this.marker) {
      this.marker.setLatLng([at[0], at[1]]);
      const element = this.marker.getElement();
      if (element) {
        element.setAttribute('data-latlng', at[0] + ',' + at[1]);
        element.setAttribute('data-t', String(Math.round(this.t)));
      }
    }
    slider().value = String(this.t - this.from);
    $('playback-time').textContent = fmt.time(this.t);
  }

  private speed(): number {
    const chosen = $<HTMLSelectElement>('playback-speed').value;
    return chosen === 'auto' ? Math.max(1, (this.to - this.from) / AUTO_PLAY_MS) : Number(chosen);
  }

  play(): void {
    if (this.frame || this.to <= this.from) return;
    if (this.t >= this.to) this.seek(this.from);
    $('playback-toggle').textContent = 'Pause';
    let previous = performance.now();
    const step = (now: number): void => {
      this.seek(this.t + (now - previous) * this.speed());
      previous = now;
      if (this.t >= this.to) return this.pause();
      this.frame = requestAnimationFrame(step);
    };
    this.frame = requestAnimationFrame(step);
  }

  pause(): void {
    if (this.frame) cancelAnimationFrame(this.frame);
    this.frame = 0;
    $('playback-toggle').textContent = 'Play';
  }

  hide(): void {
    this.pause();
    this.generation++;
    this.deviceId = null;
    $('playback').hidden = true;
    if (this.marker) this.marker.remove();
    this.marker = null;
  }
}

/** The bar's element, built here so index.html stays the page's outline. */
export function playbackBar(): HTMLDivElement {
  const speed = el(
    'select',
    { id: 'playback-speed', ariaLabel: 'Playback speed' },
    ...[
      ['auto', 'auto'],
      ['1', '×1'],
      ['10', '×10'],
      ['60', '×60'],
      ['600', '×600'],
    ].map(([value, label]) => el('option', { value }, label)),
  );
  return el(
    'div',
    { id: 'playback', className: 'playback', hidden: true },
    el('div', { className: 'playback-head' }, el('strong', {}, 'Playback '), el('span', { id: 'playback-title' })),
    el(
      'div',
      { className: 'playback-controls' },
      el('button', { type: 'button', id: 'playback-toggle' }, 'Play'),
      el('input', { type: 'range', id: 'playback-slider', min: '0', max: '1', value: '0', ariaLabel: 'Time' }),
      speed,
      el('button', { type: 'button', id: 'playback-close', ariaLabel: 'Close playback' }, '×'),
    ),
    el('div', { id: 'playback-time', className: 'hint' }),
  );
}
