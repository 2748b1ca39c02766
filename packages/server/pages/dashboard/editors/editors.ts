// What the dashboard's operators manage besides devices: the reading settings (time zone, units),
// the event sinks (with their backlog, refreshed), and, for operators and owners, the geofence editor.
import { $ } from '../base/dom.js';
import { GeofenceEditor } from './geofence-editor.js';
import { showSettings } from '../settings/settings.js';
import { SinksPanel } from './sinks-panel.js';

/** How often the sinks' backlog is read again while the page is open. */
const SINKS_REFRESH_MS = 5000;

export function startEditors(
  map: L.Map,
  fencesLayer: L.LayerGroup,
  canWrite: boolean,
  report: (error: unknown) => void,
  redrawNumbers: () => void,
): void {
  showSettings();
  document.addEventListener('waypost:settings', redrawNumbers);
  const sinks = new SinksPanel(report, canWrite);
  void sinks.show().catch(report);
  setInterval(() => {
    if (!document.hidden && !$('app').hidden) void sinks.show().catch(report);
  }, SINKS_REFRESH_MS);
  // A viewer gets no editor at all (the API refuses their writes as well).
  $('geofence-editor').hidden = true;
  if (!canWrite) return;
  const editor = new GeofenceEditor(map, fencesLayer, report);
  void editor.show().catch(report);
  // Its list and the draft's size show lengths: they follow the unit setting.
  document.addEventListener('waypost:settings', () => void editor.redraw().catch(report));
}
