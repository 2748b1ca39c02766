// The Waypost dashboard: devices and their trips on a basemap, a time range, the records table,
// event markers, geofences, live positions (server-sent events) and commands. Leaflet, geoman,
// topojson-client and world-atlas come from this server's node_modules. Login is login.ts; the
// settings and the geofence and sink editors are editors.ts.
import { apiJson, Unauthorized } from '../base/api.js';
import { addBasemap, type Basemap } from '../map/basemap.js';
import { setUpCommandForm } from '../device/commands.js';
import { addDetailsSection, forgetSections, renderDetails } from '../device/details.js';
import { fetchOverlays, fetchTrack, rangeQuery } from '../map/device-data.js';
import { DeviceList } from '../fleet/device-list.js';
import { renderItem } from '../fleet/device-row.js';
import { $ } from '../base/dom.js';
import { drawServerGeofences } from '../map/fleet-events.js';
import { startEditors } from '../editors/editors.js';
import { infoAfter, livePosition } from './live-position.js';
import { drawToldOver } from './live-during-load.js';
import { setUpLogin, type Powers } from './login.js';
import { currentRange, isLive, watchRange, type Range } from '../base/range.js';
import { RecordsTable } from '../device/records.js';
import { Playback } from '../playback/playback.js';
import { setUpSheet } from '../base/sheet.js';
import { drawLongTrack } from '../map/track-tiles.js';
import { tripsSection } from '../device/trips.js';
import { shareSection } from '../device/share-links.js';
import { deviceKeySection } from '../device/device-key.js';
import { healthSection } from '../device/health.js';
import { applyHealth, fleetHealth, keepHealthFresh } from '../health/health-feed.js';
import { deviceStateSection } from '../health/health-text.js';
import { setLateAfter, timelineSection } from '../device/timeline.js';
import type { DeviceInfo } from '../device-info.js';
import type { DashboardConfig } from '../replies.js';
import { fitInsets, fitTo, fitToActive, focusOn, showEmptyHint } from '../map/view.js';
import { deviceInAddress, startMapLife, writeAddress } from '../map/map-life.js';
import { setSilentAfter } from '../map/vehicle-marker.js';
import { FleetDevices, MAP_DEVICES, TRACKED_DEVICES } from './fleet-devices.js';
import type { Device, DrawnDevice } from './fleet-devices.js';

/** /dashboard-config.json as the page reads it (the server's own settings for the page). */
type PageConfig = DashboardConfig & { basemap?: Basemap | null; silentAfterSeconds: number; lateAfterSeconds: number };

const fleet = new FleetDevices({ add: (id) => list.add(id), changed: (id) => list.changed(id) });
const devices = fleet.all;
const list = new DeviceList(
  devices,
  (device, li) => renderItem(device, li, selected),
  (id) => void select(id, true).catch(report),
);
let map: L.Map | null = null;
let range: Range = { from: null, to: null };
let selected: string | null = null;
let source: EventSource | null = null;
let playback: Playback | null = null;
let serverFences: L.LayerGroup | null = null;
let reclusters = (): void => undefined;
const table = new RecordsTable((record) => focusRecord(record));
addDetailsSection(deviceStateSection);
addDetailsSection(healthSection);
addDetailsSection(tripsSection);
addDetailsSection(timelineSection((record) => focusRecord(record)));
addDetailsSection(shareSection);
addDetailsSection(deviceKeySection);

const query = (): string => rangeQuery(range);
const theMap = (): L.Map => {
  if (!map) throw new Error('the map is not drawn yet'); // start() makes it before anything draws
  return map;
};

const ensureDevice = (info: DeviceInfo): Device => fleet.ensure(info);
/** Puts a device on the map, unless the map holds MAP_DEVICES already (`force`: even then). */
const mapDevice = (device: Device, force = false): device is DrawnDevice =>
  fleet.draw(device, theMap(), (id) => void select(id, false).catch(report), force);

async function loadTrack(device: DrawnDevice): Promise<void> {
  // Only a device's newest load draws: a slower older answer (another zoom, tiles back) is stale.
  const load = ++device.loads;
  // A long history: tiles (track-tiles.ts); while they are being built, the records below.
  if (await drawLongTrack(theMap(), device, range, () => void loadTrack(device).catch(report))) return;
  device.live.begin();
  const { track, gaps } = await fetchTrack(device.info.id, range, theMap().getZoom());
  if (device.loads !== load) return;
  device.track = track;
  device.layer.drawTrack(track, gaps);
  drawToldOver(device.live, track, device.layer); // positions stored after the answer was made
  if (device.info.id === selected) playback?.useTrack(selected, device.colour, track.trips);
}

async function loadOverlays(device: DrawnDevice): Promise<void> {
  const [events, geofences] = await fetchOverlays(device.info.id, range);
  device.layer.drawEvents(events);
  device.layer.drawGeofences(geofences);
}

const drawnDevices = (): DrawnDevice[] => fleet.drawn();
const trackedDevices = (): DrawnDevice[] => fleet.tracked();

async function loadAll(): Promise<void> {
  for (const device of drawnDevices()) if (!device.tracked) device.layer.placeLatest(device.info.lastPosition, range);
  await Promise.all(trackedDevices().map((device) => Promise.all([loadTrack(device), loadOverlays(device)])));
  if (selected) showDetails();
}

function showDetails(): void {
  renderDetails(selected === null ? null : devices.get(selected), query(), report);
}

async function select(id: string, fromList: boolean): Promise<void> {
  const previous = selected;
  selected = id;
  const device = devices.get(id);
  if (!device) return;
  if (!device.tracked && mapDevice(device, true)) {
    device.tracked = true;
    await Promise.all([loadTrack(device), loadOverlays(device)]).catch(report);
  }
  // The selected device over the others, which step back.
  for (const other of drawnDevices()) other.layer.setEmphasis(other.info.id === id ? 'selected' : 'dimmed');
  if (previous !== id) writeAddress(id);
  reclusters();
  list.redraw();
  if (!fromList) list.reveal(id);
  $<HTMLSelectElement>('command-device').value = id;
  $('records-hint').hidden = true;
  showDetails();
  theMap().invalidateSize(); // the inspector column may have just appeared
  document.dispatchEvent(new CustomEvent('waypost:select', { detail: { id, range } }));
  table.show(id, range).catch(report);
  if (device.track) playback?.useTrack(id, device.colour, device.track.trips);
  fitTo(theMap(), [device], fitInsets(theMap(), id));
}

const focusRecord = (record: { latitude?: unknown; longitude?: unknown; recordedAt: number }): void =>
  focusOn(theMap(), record);

/** A settings change (time zone, units): everything showing times or measures is drawn again. */
function redrawNumbers(): void {
  list.redraw();
  if (!selected) return;
  forgetSections();
  showDetails();
  table.show(selected, range).catch(report);
  playback?.redraw();
}

function onPosition(message: MessageEvent<string>): void {
  const position = livePosition(message.data);
  if (!position) return;
  const known = devices.get(position.deviceId);
  const device = ensureDevice(infoAfter(position, known?.info));
  showEmptyState();
  const t = Date.parse(position.timestamp);
  if (isLive(range) && mapDevice(device)) {
    device.live.tell([position.latitude, position.longitude, t]);
    if (device.tracked || !device.track) device.layer.appendLive(position.latitude, position.longitude, t);
    if (device.track) device.track.newest = { lat: position.latitude, lon: position.longitude, t };
    if (!known) bringIntoView(device);
    reclusters();
  }
  if (selected === position.deviceId) scheduleTableRefresh();
  $('status').textContent = 'live · last update ' + new Date().toLocaleTimeString();
}

// A device that appeared after the page opened: the view widens to the active fleet when its marker
// falls outside, once a frame however many arrive (not while one is selected: that one is watched).
let refit = 0;
function bringIntoView(device: Device): void {
  const at = device.layer?.marker.latLng();
  if (refit || selected !== null || !at || theMap().getBounds().contains(at)) return;
  refit = requestAnimationFrame(() => {
    refit = 0;
    if (selected === null) fitToActive(theMap(), [...devices.values()]);
  });
}

let tableRefresh: ReturnType<typeof setTimeout> | null = null;
function scheduleTableRefresh(): void {
  if (tableRefresh) return;
  tableRefresh = setTimeout(() => {
    tableRefresh = null;
    table.refreshIfFirst().catch(report);
    showDetails();
  }, 500);
}

function report(error: unknown): void {
  if (error instanceof Unauthorized) return;
  $('status').textContent = 'error: ' + (error instanceof Error && error.message ? error.message : String(error));
}

const showEmptyState = (): void => showEmptyHint(devices.size === 0);

/** The first view: the device named in the address (#device=id), else the active devices. */
async function firstView(): Promise<void> {
  const wanted = deviceInAddress();
  if (wanted && devices.has(wanted)) return select(wanted, false);
  fitToActive(theMap(), [...devices.values()]);
}

/** The map and what lives on it for the page's whole life (made at the first login). */
async function makeMap(): Promise<L.Map> {
  const config = (await (await fetch('/dashboard-config.json')).json()) as PageConfig;
  setSilentAfter(config.silentAfterSeconds * 1000);
  setLateAfter(config.lateAfterSeconds * 1000);
  const made = L.map('map', { zoomControl: true, worldCopyJump: true }).setView([20, 0], 2);
  map = made;
  reclusters = startMapLife(made, {
    layers: () => drawnDevices().map((device) => device.layer),
    selected: () => selected,
    select: (id) => void (devices.has(id) && select(id, false).catch(report)),
  });
  // Not awaited: the outline's data (a world at 1:50m) loads while the devices do.
  addBasemap(made, config).catch(() => undefined);
  let zoomTimer: ReturnType<typeof setTimeout> | undefined;
  made.on('zoomend', () => {
    clearTimeout(zoomTimer);
    zoomTimer = setTimeout(
      () =>
        Promise.all(trackedDevices().map(loadTrack))
          .then(() => selected && showDetails())
          .catch(report),
      200,
    );
  });
  watchRange((next) => {
    range = next;
    loadAll().catch(report);
    if (selected) {
      table.show(selected, range).catch(report);
      document.dispatchEvent(new CustomEvent('waypost:select', { detail: { id: selected, range } }));
    }
  });
  setUpSheet(made);
  const player = (playback = new Playback(made));
  // A trip's Play button: that trip's window, playing at once.
  document.addEventListener('waypost:play', (event) => {
    const detail = (event as CustomEvent<{ deviceId: string; from: number; to: number }>).detail;
    const device = devices.get(detail.deviceId);
    if (device) player.load(detail.deviceId, device.colour, detail.from, detail.to).then(() => player.play(), report);
  });
  // Not awaited: the command names fill their form while the fleet loads and draws.
  setUpCommandForm().catch(report);
  return made;
}

/** The live feed: positions as they are stored, and what the status line says of the feed. */
function listen(): EventSource {
  const feed = new EventSource('/api/events');
  feed.addEventListener('position', onPosition);
  // Away too long to be told device by device: start again from the database.
  feed.addEventListener('reload', () => window.location.reload());
  feed.addEventListener('open', () => ($('status').textContent = 'live'));
  // An answer that is no stream (a feed refused: too many open, issue 45) ends the EventSource for
  // good: say so rather than "reconnecting" for ever.
  feed.addEventListener('error', () => {
    const closed = feed.readyState === EventSource.CLOSED;
    $('status').textContent = closed ? 'not live (too many live views open?): reload to try again' : 'reconnecting…';
  });
  return feed;
}

async function start(powers: Powers): Promise<void> {
  $('login').hidden = true;
  $('app').hidden = false;
  // The fleet and its health load while the map is made (caught: a map that fails first awaits none).
  const answers = Promise.all([apiJson('/api/dashboard/devices') as Promise<DeviceInfo[]>, fleetHealth()]);
  answers.catch(() => undefined);
  const shown = map ?? (await makeMap());
  range = currentRange();
  const [infos, healthOf] = await answers;
  for (const info of infos) ensureDevice({ ...info, health: healthOf.get(info.id) ?? null });
  keepHealthFresh((states) => applyHealth(states, devices, ensureDevice), report);
  list.flush();
  showEmptyState();
  // The most recently seen devices go on the map; the others wait in the list until picked.
  const seenAt = (info: DeviceInfo): number => Date.parse(info.lastSeen ?? '');
  const recent = infos
    .filter((info) => info.lastSeen)
    .sort((a, b) => seenAt(b) - seenAt(a))
    .slice(0, MAP_DEVICES);
  recent.forEach((info, index) => {
    const device = devices.get(info.id);
    if (!device) return;
    mapDevice(device);
    device.tracked = index < TRACKED_DEVICES;
  });
  await loadAll();
  if (!serverFences) {
    serverFences = L.layerGroup();
    startEditors(shown, serverFences, powers.write, report, redrawNumbers);
  }
  drawServerGeofences(shown, serverFences).catch(report);
  await firstView();
  reclusters();
  source = listen();
  $('status').textContent = source.readyState === 1 ? 'live' : $('status').textContent;
}

setUpLogin(
  (powers) => start(powers),
  () => {
    if (source) source.close();
    source = null;
  },
  report,
);
