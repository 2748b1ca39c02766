/* global L */
// The geofence editor (issue 32): draw a circle or a polygon on the map (leaflet-geoman, served by
// this server), name it, set its loitering delay, save it through POST /api/geofences; edit and
// delete the ones saved. The API validates; its errors show beside their field, as text.
// Operators and owners only: a viewer's page never builds it (the API refuses them as well).
import { api } from './api.js';
import { $, el, fill } from './dom.js';
import { errorLine, send } from './form-errors.js';
import { drawServerGeofences, fenceSize } from './fleet-events.js';
import * as fmt from './format.js';

const EDIT_STYLE = { color: '#d97706', weight: 3, fillOpacity: 0.12, pmIgnore: false, className: 'geofence-draft' };
const FIELDS = ['identifier', 'loiteringDelay', 'shape'];

export class GeofenceEditor {
  constructor(map, fencesLayer, report) {
    this.map = map;
    this.fences = fencesLayer;
    this.report = report;
    this.draft = null; // the shape being drawn or edited
    this.editing = null; // the saved identifier being edited, null for a new geofence
    this.errors = Object.fromEntries(FIELDS.map((field) => [field, errorLine('fence', field)]));
    this.name = el('input', { id: 'fence-name', maxLength: 256, autocomplete: 'off' });
    this.loitering = el('input', { id: 'fence-loitering', inputMode: 'numeric', value: '0' });
    // The draft's size as it is drawn and dragged, in the chosen unit system (the API takes metres).
    this.size = el('p', { className: 'hint', id: 'fence-size' });
    this.section = $('geofence-editor');
    // Only the shapes made here are editable: tracks, markers and saved fences stay as they are.
    L.PM.setOptIn(true);
    map.on('pm:create', ({ layer }) => this.drawn(layer));
  }

  /** The editor's panel: the saved geofences, the draw buttons, and the form once a shape exists. */
  async show() {
    const fences = await (await api('/api/geofences')).json();
    this.section.hidden = false;
    fill(
      this.section,
      el('h2', {}, 'Geofences'),
      el(
        'div',
        { className: 'draw-buttons' },
        el('button', { type: 'button', id: 'draw-circle', onclick: () => this.draw('Circle') }, 'Draw a circle'),
        el('button', { type: 'button', id: 'draw-polygon', onclick: () => this.draw('Polygon') }, 'Draw a polygon'),
      ),
      this.form(),
      el('ul', { className: 'fence-list' }, ...fences.map((fence) => this.item(fence))),
    );
  }

  item(fence) {
    const size = fenceSize(fence);
    const loiter = fence.loiteringDelay > 0 ? ' · loiter ' + fmt.duration(fence.loiteringDelay) : '';
    return el(
      'li',
      { dataset: { fence: fence.identifier } },
      el('strong', {}, fence.identifier),
      ' ' + size + loiter + ' ',
      el('button', { type: 'button', className: 'edit-fence', onclick: () => this.edit(fence) }, 'Edit'),
      ' ',
      el('button', { type: 'button', className: 'delete-fence', onclick: () => this.remove(fence) }, 'Delete'),
    );
  }

  form() {
    this.formElement = el(
      'form',
      { id: 'fence-form', hidden: this.draft === null, onsubmit: (event) => this.save(event) },
      el('p', { className: 'hint', id: 'fence-hint' }, this.editing ? 'Editing ' + this.editing : 'New geofence'),
      this.size,
      el('label', {}, 'Name ', this.name),
      this.errors.identifier,
      el('label', {}, 'Loitering delay (seconds) ', this.loitering),
      this.errors.loiteringDelay,
      this.errors.shape,
      el('button', { type: 'submit', id: 'fence-save' }, 'Save'),
      ' ',
      el('button', { type: 'button', id: 'fence-cancel', onclick: () => this.cancel() }, 'Cancel'),
    );
    return this.formElement;
  }

  draw(shape) {
    this.clearDraft();
    this.editing = null;
    this.name.value = '';
    this.loitering.value = '0';
    // On a phone the sheet goes down to its peek: the shape is drawn on the map above it.
    if ($('sidebar').classList.contains('expanded')) $('sheet-toggle').click();
    this.map.pm.enableDraw(shape, { pathOptions: EDIT_STYLE, templineStyle: EDIT_STYLE, hintlineStyle: EDIT_STYLE });
  }

  /** A shape geoman finished: kept as the draft, editable (drag its corners or its edge). */
  drawn(layer) {
    this.map.removeLayer(layer);
    this.useDraft(
      layer instanceof L.Circle
        ? L.circle(layer.getLatLng(), { ...EDIT_STYLE, radius: layer.getRadius() })
        : L.polygon(layer.getLatLngs(), EDIT_STYLE),
    );
  }

  useDraft(shape) {
    this.clearDraft();
    this.draft = shape.addTo(this.map);
    L.PM.reInitLayer(shape);
    shape.pm.enable({ allowSelfIntersection: false });
    shape.on('pm:change pm:edit', () => this.showSize());
    this.showSize();
    for (const line of Object.values(this.errors)) line.textContent = '';
    fill($('fence-hint'), this.editing ? 'Editing ' + this.editing : 'New geofence: name it and save');
    this.formElement.hidden = false;
    this.name.focus();
  }

  /** The draft's radius ("Radius 492 ft") or its corners, as the settings read; empty without a draft. */
  showSize() {
    const draft = this.draft;
    fill(
      this.size,
      !draft
        ? ''
        : draft instanceof L.Circle
          ? 'Radius ' + fmt.length(draft.getRadius())
          : draft.getLatLngs()[0].length + ' corners',
    );
  }

  /** A settings change: the list and the draft's size read in the new units. */
  async redraw() {
    await this.show();
    this.showSize();
  }

  edit(fence) {
    this.map.pm.disableDraw();
    this.editing = fence.identifier;
    this.name.value = fence.identifier;
    this.loitering.value = String((fence.loiteringDelay ?? 0) / 1000);
    const shape = fence.vertices
      ? L.polygon(fence.vertices, EDIT_STYLE)
      : L.circle([fence.latitude, fence.longitude], { ...EDIT_STYLE, radius: fence.radius });
    this.useDraft(shape);
    this.map.fitBounds(shape.getBounds(), { maxZoom: 17 });
  }

  /** The API's body: what the person typed goes as typed when it is not a number (the API says why). */
  body() {
    const seconds = this.loitering.value.trim();
    const loiteringDelay = /^\d+(\.\d+)?$/.test(seconds) ? Math.round(Number(seconds) * 1000) : seconds;
    const base = { identifier: this.name.value, loiteringDelay };
    if (this.draft instanceof L.Circle) {
      const { lat, lng } = this.draft.getLatLng();
      return { ...base, latitude: lat, longitude: lng, radius: Math.round(this.draft.getRadius()) };
    }
    return { ...base, vertices: this.draft.getLatLngs()[0].map(({ lat, lng }) => [lat, lng]) };
  }

  async save(event) {
    event.preventDefault();
    if (!this.draft) return;
    const body = this.body();
    const saved = await send('/api/geofences', { method: 'POST', body: JSON.stringify(body) }, this.errors);
    if (!saved) return;
    // Renamed: the old name goes once the new one is saved (never a moment with neither).
    if (this.editing && this.editing !== saved.identifier)
      await send('/api/geofences/' + encodeURIComponent(this.editing), { method: 'DELETE' }, this.errors);
    this.cancel();
    await this.refresh();
  }

  async remove(fence) {
    // Organizations may name geofences alike (identifiers are unique per org): say whose.
    const whose = fence.org ? '?org=' + encodeURIComponent(fence.org) : '';
    await send('/api/geofences/' + encodeURIComponent(fence.identifier) + whose, { method: 'DELETE' }, this.errors);
    if (this.editing === fence.identifier) this.cancel();
    await this.refresh();
  }

  cancel() {
    this.map.pm.disableDraw();
    this.clearDraft();
    this.editing = null;
    this.formElement.hidden = true;
  }

  clearDraft() {
    if (this.draft) this.map.removeLayer(this.draft);
    this.draft = null;
  }

  async refresh() {
    await drawServerGeofences(this.map, this.fences);
    await this.show();
  }
}
