// A vehicle on the map: a dot in the device's colour ringed in its state's colour (the state the
// device list says: live, parked, waiting, failing...), and beside it a label with its name, an arrow for its heading and the age of
// its newest fix ("2 min ago"). The label is DOM built with el(): text, never HTML. The selected
// vehicle is drawn over the others, which are dimmed.
import { el } from '../base/dom.js';
import * as fmt from '../settings/format.js';
import type { Health } from '../replies.js';
import { shownState, STATE_COLOURS, STATE_NAMES, vehicleNow, type TimedPoint } from './vehicle-state.js';

/** What a marker is told of its vehicle. */
export type VehicleOptions = {
  id: string;
  label: string;
  colour: string;
  onSelect: (id: string) => void;
  /** Marks a Leaflet layer's element for the page's tests and styles. */
  tag: (layer: L.Path, name: string) => void;
  /** The device's last upload (ms). */
  heardAt: () => number;
  /** The state the server names (the device list's), shown when there is one. */
  healthOf?: () => Health | null | undefined;
};

export type Emphasis = 'selected' | 'dimmed' | 'normal';

/** The server's default --silent-after, until the page is told the configured one. */
let silentAfterMs = 3600_000;
export function setSilentAfter(ms: number): void {
  if (ms === 0)
    silentAfterMs = Infinity; // --silent-after 0: never silent
  else if (Number.isFinite(ms) && ms > 0) silentAfterMs = ms;
}

const Z_SELECTED = 10_000;

export class VehicleMarker {
  readonly id: string;
  label: string;
  private readonly colour: string;
  private readonly onSelect: (id: string) => void;
  private readonly tag: VehicleOptions['tag'];
  private readonly heardAt: () => number;
  private readonly healthOf: () => Health | null | undefined;
  private dot: L.CircleMarker | null;
  private sign: L.Marker | null;
  private labelElement: HTMLDivElement | null = null;
  private point: TimedPoint | null;
  private previous: TimedPoint | null;
  private emphasis: Emphasis;
  private folded = false;
  state: string | undefined;

  constructor(
    private readonly map: L.Map,
    { id, label, colour, onSelect, tag, heardAt, healthOf = () => null }: VehicleOptions,
  ) {
    // heardAt(): the device's last upload (ms); healthOf(): the state the server names (the
    // device list's), shown when there is one (vehicle-state.js, shownState).
    this.id = id;
    this.label = label;
    this.colour = colour;
    this.onSelect = onSelect;
    this.tag = tag;
    this.heardAt = heardAt;
    this.healthOf = healthOf;
    this.dot = null;
    this.sign = null;
    this.point = null; // [lat, lon, t]
    this.previous = null;
    this.emphasis = 'normal';
  }

  /** At its newest fix; `previous` (the fix before it, or null) gives heading and motion. */
  place(latitude: number, longitude: number, t: number, previous: TimedPoint | null = null): void {
    this.point = [latitude, longitude, t];
    this.previous = previous;
    if (!this.dot) {
      this.dot = L.circleMarker([latitude, longitude], {
        radius: 8,
        weight: 3,
        fillColor: this.colour,
        fillOpacity: 1,
        className: 'device-marker',
      });
      this.dot.on('click', () => this.onSelect(this.id));
      this.dot.addTo(this.map);
      this.tag(this.dot, 'device-marker');
      const label = el('div', { className: 'vehicle-label', onclick: () => this.onSelect(this.id) });
      this.labelElement = label;
      label.setAttribute('data-device', this.id);
      this.sign = L.marker([latitude, longitude], {
        icon: L.divIcon({
          className: 'vehicle-label-icon',
          html: label,
          iconSize: null as unknown as L.PointExpression,
          iconAnchor: [-13, 11],
        }),
        keyboard: false,
        interactive: true,
      }).addTo(this.map);
    } else {
      this.dot.setLatLng([latitude, longitude]);
      this.sign?.setLatLng([latitude, longitude]);
    }
    const element = this.dot.getElement();
    if (element) element.setAttribute('data-latlng', latitude + ',' + longitude);
    this.refresh();
  }

  /** Redraws what time changes: the state and the age (called as the clock moves on). */
  refresh(now = Date.now()): void {
    const dot = this.dot;
    const labelElement = this.labelElement;
    if (!this.point || !dot || !labelElement) return;
    const moved = vehicleNow(this.point, this.previous, now, silentAfterMs, this.heardAt());
    const state = shownState(this.healthOf(), moved.state);
    const heading = moved.heading;
    const [latitude, longitude, t] = this.point;
    this.state = state;
    dot.setStyle({ color: STATE_COLOURS[state] });
    const element = dot.getElement();
    if (element) element.setAttribute('data-state', state);
    const arrow = el('span', { className: 'heading', title: heading === null ? '' : Math.round(heading) + '°' }, '▲');
    if (heading === null) arrow.hidden = true;
    else arrow.style.transform = 'rotate(' + Math.round(heading) + 'deg)'; // CSSOM, allowed under style-src 'self'
    const chip = el('span', { className: 'state state-' + state }, STATE_NAMES[state]);
    chip.style.background = STATE_COLOURS[state] ?? '';
    labelElement.replaceChildren(
      arrow,
      el('span', { className: 'vehicle-name' }, this.label),
      chip,
      // Named "fix": this is when the position was recorded, not the upload the device list ages.
      el('span', { className: 'age-of', title: 'when this position was recorded (the fix)' }, 'fix'),
      el('span', { className: 'vehicle-age' }, fmt.ago(t, now)),
    );
    labelElement.dataset.state = state;
    dot.bindTooltip(
      el(
        'div',
        {},
        el('strong', {}, this.label),
        this.label === this.id ? null : el('div', {}, this.id),
        el('div', {}, STATE_NAMES[state] + (heading === null ? '' : ' · heading ' + Math.round(heading) + '°')),
        el('div', {}, fmt.coordinates(latitude, longitude)),
        el('div', {}, fmt.time(t) + ' (' + fmt.ago(t, now) + ')'),
      ),
    );
    this.applyEmphasis();
  }

  /** 'selected' (over everything, larger), 'dimmed' (another device is selected) or 'normal'. */
  setEmphasis(mode: Emphasis): void {
    this.emphasis = mode;
    this.applyEmphasis();
  }

  applyEmphasis(): void {
    const dot = this.dot;
    if (!dot) return;
    const mode = this.emphasis;
    dot.setRadius(mode === 'selected' ? 11 : 8);
    dot.setStyle({ fillOpacity: mode === 'dimmed' ? 0.45 : 1, opacity: mode === 'dimmed' ? 0.5 : 1 });
    this.labelElement?.classList.toggle('dimmed', mode === 'dimmed');
    this.labelElement?.classList.toggle('selected', mode === 'selected');
    this.sign?.setZIndexOffset(mode === 'selected' ? Z_SELECTED : 0);
    if (mode === 'selected') dot.bringToFront();
  }

  /** Folded into a cluster badge (clusters.js): off the map until unfolded. */
  setFolded(folded: boolean): void {
    const dot = this.dot;
    if (!dot || folded === this.folded) return;
    this.folded = folded;
    if (folded) {
      dot.remove();
      this.sign?.remove();
      return;
    }
    dot.addTo(this.map);
    this.sign?.addTo(this.map);
    this.tag(dot, 'device-marker'); // a path re-added is a new element
    this.refresh();
    const element = dot.getElement();
    if (element && this.point) element.setAttribute('data-latlng', this.point[0] + ',' + this.point[1]);
  }

  bringToFront(): void {
    if (this.dot) this.dot.bringToFront();
  }

  latLng(): L.LatLng | null {
    return this.dot ? this.dot.getLatLng() : null;
  }

  remove(): void {
    if (this.dot) this.dot.remove();
    if (this.sign) this.sign.remove();
    this.dot = null;
    this.sign = null;
    this.folded = false;
  }
}
