/* global L */
// A vehicle on the map: a dot in the device's colour ringed in its state's colour (the state the
// device list says: live, parked, waiting, failing...), and beside it a label with its name, an arrow for its heading and the age of
// its newest fix ("2 min ago"). The label is DOM built with el(): text, never HTML. The selected
// vehicle is drawn over the others, which are dimmed.
import { el } from './dom.js';
import * as fmt from './format.js';
import { shownState, STATE_COLOURS, STATE_NAMES, vehicleNow } from './vehicle-state.js';

/** The server's default --silent-after, until the page is told the configured one. */
let silentAfterMs = 3600_000;
export function setSilentAfter(ms) {
  if (ms === 0)
    silentAfterMs = Infinity; // --silent-after 0: never silent
  else if (Number.isFinite(ms) && ms > 0) silentAfterMs = ms;
}

const Z_SELECTED = 10_000;

export class VehicleMarker {
  constructor(map, { id, label, colour, onSelect, tag, heardAt, healthOf = () => null }) {
    // heardAt(): the device's last upload (ms); healthOf(): the state the server names (the
    // device list's), shown when there is one (vehicle-state.js, shownState).
    Object.assign(this, { map, id, label, colour, onSelect, tag, heardAt, healthOf });
    this.dot = null;
    this.sign = null;
    this.point = null; // [lat, lon, t]
    this.previous = null;
    this.emphasis = 'normal';
  }

  /** At its newest fix; `previous` (the fix before it, or null) gives heading and motion. */
  place(latitude, longitude, t, previous = null) {
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
      this.labelElement = el('div', { className: 'vehicle-label', onclick: () => this.onSelect(this.id) });
      this.labelElement.setAttribute('data-device', this.id);
      this.sign = L.marker([latitude, longitude], {
        icon: L.divIcon({
          className: 'vehicle-label-icon',
          html: this.labelElement,
          iconSize: null,
          iconAnchor: [-13, 11],
        }),
        keyboard: false,
        interactive: true,
      }).addTo(this.map);
    } else {
      this.dot.setLatLng([latitude, longitude]);
      this.sign.setLatLng([latitude, longitude]);
    }
    const element = this.dot.getElement();
    if (element) element.setAttribute('data-latlng', latitude + ',' + longitude);
    this.refresh();
  }

  /** Redraws what time changes: the state and the age (called as the clock moves on). */
  refresh(now = Date.now()) {
    if (!this.point) return;
    const moved = vehicleNow(this.point, this.previous, now, silentAfterMs, this.heardAt());
    const state = shownState(this.healthOf(), moved.state);
    const heading = moved.heading;
    const [latitude, longitude, t] = this.point;
    this.state = state;
    this.dot.setStyle({ color: STATE_COLOURS[state] });
    const element = this.dot.getElement();
    if (element) element.setAttribute('data-state', state);
    const arrow = el('span', { className: 'heading', title: heading === null ? '' : Math.round(heading) + '°' }, '▲');
    if (heading === null) arrow.hidden = true;
    else arrow.style.transform = 'rotate(' + Math.round(heading) + 'deg)'; // CSSOM, allowed under style-src 'self'
    const chip = el('span', { className: 'state state-' + state }, STATE_NAMES[state]);
    chip.style.background = STATE_COLOURS[state];
    this.labelElement.replaceChildren(
      arrow,
      el('span', { className: 'vehicle-name' }, this.label),
      chip,
      el('span', { className: 'vehicle-age' }, fmt.ago(t, now)),
    );
    this.labelElement.dataset.state = state;
    this.dot.bindTooltip(
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
  setEmphasis(mode) {
    this.emphasis = mode;
    this.applyEmphasis();
  }

  applyEmphasis() {
    if (!this.dot) return;
    const mode = this.emphasis;
    this.dot.setRadius(mode === 'selected' ? 11 : 8);
    this.dot.setStyle({ fillOpacity: mode === 'dimmed' ? 0.45 : 1, opacity: mode === 'dimmed' ? 0.5 : 1 });
    this.labelElement.classList.toggle('dimmed', mode === 'dimmed');
    this.labelElement.classList.toggle('selected', mode === 'selected');
    this.sign.setZIndexOffset(mode === 'selected' ? Z_SELECTED : 0);
    if (mode === 'selected') this.dot.bringToFront();
  }

  /** Folded into a cluster badge (clusters.js): off the map until unfolded. */
  setFolded(folded) {
    if (!this.dot || folded === Boolean(this.folded)) return;
    this.folded = folded;
    if (folded) {
      this.dot.remove();
      this.sign.remove();
      return;
    }
    this.dot.addTo(this.map);
    this.sign.addTo(this.map);
    this.tag(this.dot, 'device-marker'); // a path re-added is a new element
    this.refresh();
    const element = this.dot.getElement();
    if (element) element.setAttribute('data-latlng', this.point[0] + ',' + this.point[1]);
  }

  bringToFront() {
    if (this.dot) this.dot.bringToFront();
  }

  latLng() {
    return this.dot ? this.dot.getLatLng() : null;
  }

  remove() {
    if (this.dot) this.dot.remove();
    if (this.sign) this.sign.remove();
    this.dot = null;
    this.sign = null;
    this.folded = false;
  }
}
