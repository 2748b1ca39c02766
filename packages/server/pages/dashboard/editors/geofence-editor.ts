// The geofence editor (issue 32): draw a circle or a polygon on the map (leaflet-geoman, served by
// this server), name it, set its loitering delay, save it through POST /api/geofences; edit and
// delete the ones saved. The API validates; its errors show beside their field, as text.
// Operators and owners only: a viewer's page never builds it (the API refuses them as well).
import { apiJson } from '../base/api.js';
import { $, el, fill } from '../base/dom.js';
import { errorLine, send, showErrors } from '../base/form-errors.js';
import { drawServerGeofences, fenceSize } from '../map/fleet-events.js';
import * as fmt from '../settings/format.js';
import type { ServerGeofence } from '../replies.js';

const EDIT_STYLE: L.PathOptions = {
  color: '#d97706',
  weight: 3,
  fillOpacity: 0.12,
  pmIgnore: false,
  className: 'geofence-draft',
};
/** The fields a refusal is shown beside (form-errors.ts): the last one takes what names no field. */
type Field = 'identifier' | 'loiteringDelay' | 'shape';
type Draft = L.Circle | L.Polygon;

/** A saved geofence's loitering delay (ms), 0 when it has none. */
const loiteringOf = (fence: ServerGeofence): number =>
  'loiteringDelay' in fence && typeof fence.loiteringDelay === 'number' ? fence.loiteringDelay : 0;
/** The organization a saved geofence belongs to, when the server names one. */
const orgOf = (fence: ServerGeofence): string | null =>
  'org' in fence && typeof fence.org === 'string' && fence.org ? fence.org : null;
/**
 * The loitering delay's error in the form's unit (seconds), quoting what was typed as text; the
 * API's own name for the field stays in brackets for whoever reads the API's docs.
 */
const delayProblem = (typed: string): string =>
  'Loitering delay "' + typed.slice(0, 64) + '" is not a number of seconds, 0 or more (loiteringDelay).';
/** Every field of the form that is wrong, each with its own sentence. */
function formProblems(name: string, seconds: string): Partial<Record<Field, string>> {
  const problems: Partial<Record<Field, string>> = {};
  if (name.length === 0) problems.identifier = 'Give the geofence a name.';
  if (!/^\d+(\.\d+)?$/.test(seconds.trim())) problems.loiteringDelay = delayProblem(seconds);
  return problems;
}
/** A draft polygon's corners (its outer ring). */
const cornersOf = (polygon: L.Polygon): L.LatLng[] => (polygon.getLatLngs()[0] as L.LatLng[] | undefined) ?? [];

export class GeofenceEditor {
  private draft: Draft | null = null; // the shape being drawn or edited
  private editing: string | null = null; // the saved identifier being edited, null for a new geofence
  private readonly errors: Record<Field, HTMLParagraphElement>;
  private readonly name: HTMLInputElement;
  private readonly loitering: HTMLInputElement;
  private readonly size: HTMLParagraphElement;
  private readonly section: HTMLElement;
  private formElement: HTMLFormElement | null = null;

  constructor(
    private readonly map: L.Map,
    private readonly fences: L.LayerGroup,
    // Kept for the caller's failures; the editor's own refusals show beside their fields.
    readonly report: (error: unknown) => void,
  ) {
    this.errors = {
      identifier: errorLine('fence', 'identifier'),
      loiteringDelay: errorLine('fence', 'loiteringDelay'),
      shape: errorLine('fence', 'shape'),
    };
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
  async show(): Promise<void> {
    const fences = (await apiJson('/api/geofences')) as ServerGeofence[];
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

  private item(fence: ServerGeofence): HTMLLIElement {
    const size = fenceSize(fence);
    const delay = loiteringOf(fence);
    const loiter = delay > 0 ? ' · loiter ' + fmt.duration(delay) : '';
    return el(
      'li',
      { dataset: { fence: fence.identifier } },
      el('strong', {}, fence.identifier),
      ' ' + size + loiter + ' ',
      el('button', { type: 'button', className: 'edit-fence', onclick: () => this.edit(fence) }, 'Edit'),
      ' ',
      el('button', { type: 'button', className: 'delete-fence', onclick: () => void this.remove(fence) }, 'Delete'),
    );
  }

  private form(): HTMLFormElement {
    this.formElement = el(
      'form',
      { id: 'fence-form', hidden: this.draft === null, onsubmit: (event: SubmitEvent) => void this.save(event) },
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

  private draw(shape: 'Circle' | 'Polygon'): void {
    this.clearDraft();
    this.editing = null;
    this.name.value = '';
    this.loitering.value = '0';
    // On a phone the sheet goes down to its peek: the shape is drawn on the map above it.
    if ($('sidebar').classList.contains('expanded')) $('sheet-toggle').click();
    this.map.pm.enableDraw(shape, { pathOptions: EDIT_STYLE, templineStyle: EDIT_STYLE, hintlineStyle: EDIT_STYLE });
  }

  /** A shape geoman finished: kept as the draft, editable (drag its corners or its edge). */
  private drawn(layer: L.Layer): void {
    this.map.removeLayer(layer);
    if (layer instanceof L.Circle)
      this.useDraft(L.circle(layer.getLatLng(), { ...EDIT_STYLE, radius: layer.getRadius() }));
    else if (layer instanceof L.Polygon) this.useDraft(L.polygon(cornersOf(layer), EDIT_STYLE));
  }

  private useDraft(shape: Draft): void {
    this.clearDraft();
    this.draft = shape.addTo(this.map);
    L.PM.reInitLayer(shape);
    shape.pm.enable({ allowSelfIntersection: false });
    shape.on('pm:change pm:edit', () => this.showSize());
    this.showSize();
    for (const line of Object.values(this.errors)) line.textContent = '';
    fill($('fence-hint'), this.editing ? 'Editing ' + this.editing : 'New geofence: name it and save');
    if (this.formElement) this.formElement.hidden = false;
    this.name.focus();
  }

  /** The draft's radius ("Radius 492 ft") or its corners, as the settings read; empty without a draft. */
  private showSize(): void {
    const draft = this.draft;
    fill(
      this.size,
      !draft
        ? ''
        : draft instanceof L.Circle
          ? 'Radius ' + fmt.length(draft.getRadius())
          : cornersOf(draft).length + ' corners',
    );
  }

  /** A settings change: the list and the draft's size read in the new units. */
  async redraw(): Promise<void> {
    await this.show();
    this.showSize();
  }

  private edit(fence: ServerGeofence): void {
    this.map.pm.disableDraw();
    this.editing = fence.identifier;
    this.name.value = fence.identifier;
    this.loitering.value = String(loiteringOf(fence) / 1000);
    const shape = fence.vertices
      ? L.polygon(fence.vertices, EDIT_STYLE)
      : L.circle([fence.latitude, fence.longitude], { ...EDIT_STYLE, radius: fence.radius });
    this.useDraft(shape);
    this.map.fitBounds(shape.getBounds(), { maxZoom: 17 });
  }

  /** The API's body: the delay typed in seconds goes in the milliseconds the API takes. */
  private body(draft: Draft): Record<string, unknown> {
    const base = {
      identifier: this.name.value,
      loiteringDelay: Math.round(Number(this.loitering.value.trim()) * 1000),
    };
    if (draft instanceof L.Circle) {
      const { lat, lng } = draft.getLatLng();
      return { ...base, latitude: lat, longitude: lng, radius: Math.round(draft.getRadius()) };
    }
    return { ...base, vertices: cornersOf(draft).map(({ lat, lng }) => [lat, lng]) };
  }

  private async save(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    if (!this.draft) return;
    // The API stops at its first complaint: the form's own fields are checked here, all of them, so
    // two wrong fields show two errors; the API still decides the rest (and says it in seconds).
    if (!showErrors(this.errors, formProblems(this.name.value, this.loitering.value))) return;
    const body = this.body(this.draft);
    const init = { method: 'POST', body: JSON.stringify(body) };
    const saved = await send('/api/geofences', init, this.errors, (field, message) =>
      field === 'loiteringDelay' ? delayProblem(this.loitering.value) : message,
    );
    if (!saved) return;
    // Renamed: the old name goes once the new one is saved (never a moment with neither).
    if (this.editing && this.editing !== (saved as { identifier?: unknown }).identifier)
      await send('/api/geofences/' + encodeURIComponent(this.editing), { method: 'DELETE' }, this.errors);
    this.cancel();
    await this.refresh();
  }

  private async remove(fence: ServerGeofence): Promise<void> {
    // Organizations may name geofences alike (identifiers are unique per org): say whose.
    const org = orgOf(fence);
    const whose = org ? '?org=' + encodeURIComponent(org) : '';
    await send('/api/geofences/' + encodeURIComponent(fence.identifier) + whose, { method: 'DELETE' }, this.errors);
    if (this.editing === fence.identifier) this.cancel();
    await this.refresh();
  }

  private cancel(): void {
    this.map.pm.disableDraw();
    this.clearDraft();
    this.editing = null;
    if (this.formElement) this.formElement.hidden = true;
  }

  private clearDraft(): void {
    if (this.draft) this.map.removeLayer(this.draft);
    this.draft = null;
  }

  private async refresh(): Promise<void> {
    await drawServerGeofences(this.map, this.fences);
    await this.show();
  }
}
