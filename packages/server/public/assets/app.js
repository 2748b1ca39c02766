/* global L, CustomEvent, queueMicrotask */
// The Waypost dashboard: devices and their trips on a basemap, a time range, the records table,
// event markers, geofences, live positions (server-sent events) and commands. Plain modules, no
// bundler; Leaflet, geoman, topojson-client and world-atlas come from this server's node_modules.
// Login is login.js; the settings and the geofence and sink editors are editors.js.
import { apiJson, Unauthorized } from './api.js';
import { addBasemap } from './basemap.js';
import { colourOf } from './colour.js';
import { addCommandDevices, setUpCommandForm } from './commands.js';
import { addDetailsSection, forgetSections, renderDetails } from './details.js';
import { fetchOverlays, fetchTrack, rangeQuery } from './device-data.js';
import { DeviceList } from './device-list.js';
import { renderItem } from './device-row.js';
import { $ } from './dom.js';
import { drawServerGeofences } from './fleet-events.js';
import { startEditors } from './editors.js';
import { setUpLogin } from './login.js';
import { setLateAfter } from './timeline.js';
import { currentRange, isLive, watchRange } from './range.js';
import { RecordsTable } from './records.js';
import { Playback } from './playback.js';
import { setUpSheet } from './sheet.js';
import { DeviceLayer } from './tracks.js';
import { drawLongTrack } from './track-tiles.js';
import { tripsSection } from './trips.js';
import { shareSection } from './share-links.js';
import { deviceKeySection } from './device-key.js';
import { healthSection } from './health.js';
import { applyHealth, fleetHealth, keepHealthFresh } from './health-feed.js';
import { deviceStateSection } from './health-text.js';
import { timelineSection } from './timeline.js';
import { activeDevices, fitTo, focusOn, showEmptyHint } from './view.js';
import { deviceInAddress, startMapLife, writeAddress } from './map-life.js';
import { setSilentAfter } from './vehicle-marker.js';

/** Devices drawn on the map at most (the most recently seen, and the selected one): the list holds all. */
const MAP_DEVICES = 200;
/** Of those, the devices whose tracks are loaded at start; the others show their newest position. */
const TRACKED_DEVICES = 25;

const devices = new Map(); // id -> { info, layer, track }
const list = new DeviceList(
  devices,
  (device, li) => renderItem(device, li, selected),
  (id) => select(id, true),
);
let map = null;
let range = { from: null, to: null };
let selected = null;
let source = null;
let playback = null;
let serverFences = null;
let reclusters = () => undefined;
const table = new RecordsTable((record) => focusRecord(record));
addDetailsSection(deviceStateSection);
addDetailsSection(healthSection);
addDetailsSection(tripsSection);
addDetailsSection(timelineSection((record) => focusRecord(record)));
addDetailsSection(shareSection);
addDetailsSection(deviceKeySection);

const query = () => rangeQuery(range);
const labelOf = (info) => info.name || info.id;

/** New devices' command-form options, added together once the current batch is done. */
let pendingOptions = [];
function flushOptions() {
  addCommandDevices(pendingOptions);
  pendingOptions = [];
}

function ensureDevice(info) {
  let device = devices.get(info.id);
  if (!device) {
    device = { info, layer: null, track: null, tracked: false, colour: colourOf(info.id) };
    devices.set(info.id, device);
    list.add(info.id);
    pendingOptions.push({ id: info.id, label: labelOf(info) });
    if (pendingOptions.length === 1) queueMicrotask(flushOptions);
  } else {
    device.info = { ...device.info, ...info };
    list.changed(info.id);
  }
  return device;
}

/** Puts a device on the map (its layer), unless the map holds MAP_DEVICES already. */
function mapDevice(device, force = false) {
  if (device.layer) return true;
  const drawn = [...devices.values()].filter((d) => d.layer).length;
  if (!force && drawn >= MAP_DEVICES) return false;
  const heardAt = () => Date.parse(device.info.lastSeen);
  const healthOf = () => device.info.health;
  const onSelect = (id) => select(id, false);
  const label = labelOf(device.info);
  device.layer = new DeviceLayer(map, device.info.id, device.colour, onSelect, label, heardAt, healthOf);
  return true;
}

async function loadTrack(device) {
  // Only a device's newest load draws: a slower older answer (another zoom, tiles back) is stale.
  const load = (device.loads = (device.loads || 0) + 1);
  // A long history: tiles (track-tiles.js); while they are being built, the records below.
  if (await drawLongTrack(map, device, range, () => loadTrack(device).catch(report))) return;
  const { track, gaps } = await fetchTrack(device.info.id, range, map.getZoom());
  if (device.loads !== load) return;
  device.track = track;
  device.layer.drawTrack(track, gaps);
  if (device.info.id === selected) playback.useTrack(selected, device.colour, track.trips);
}

async function loadOverlays(device) {
  const [events, geofences] = await fetchOverlays(device.info.id, range);
  device.layer.drawEvents(events);
  device.layer.drawGeofences(geofences);
}

const drawnDevices = () => [...devices.values()].filter((device) => device.layer);
const trackedDevices = () => drawnDevices().filter((device) => device.tracked);

async function loadAll() {
  for (const device of drawnDevices()) if (!device.tracked) device.layer.placeLatest(device.info.lastPosition, range);
  await Promise.all(trackedDevices().map((device) => Promise.all([loadTrack(device), loadOverlays(device)])));
  if (selected) showDetails();
}

function showDetails() {
  renderDetails(devices.get(selected), query(), report);
}

async function select(id, fromList) {
  const previous = selected;
  selected = id;
  const device = devices.get(id);
  if (!device.tracked) {
    mapDevice(device, true);
    device.tracked = true;
    await Promise.all([loadTrack(device), loadOverlays(device)]).catch(report);
  }
  // The selected device over the others, which step back.
  for (const other of devices.values())
    if (other.layer) other.layer.setEmphasis(other.info.id === id ? 'selected' : 'dimmed');
  if (previous !== id) writeAddress(id);
  reclusters();
  list.redraw();
  if (!fromList) list.reveal(id);
  $('command-device').value = id;
  $('records-hint').hidden = true;
  showDetails();
  map.invalidateSize(); // the inspector column may have just appeared
  fitTo(map, [device]);
  document.dispatchEvent(new CustomEvent('waypost:select', { detail: { id, range } }));
  table.show(id, range).catch(report);
  if (device.track) playback.useTrack(id, device.colour, device.track.trips);
}

const focusRecord = (record) => focusOn(map, record);

/** A settings change (time zone, units): everything showing times or measures is drawn again. */
function redrawNumbers() {
  list.redraw();
  if (!selected) return;
  forgetSections();
  showDetails();
  table.show(selected, range).catch(report);
  playback.redraw();
}

function onPosition(message) {
  const position = JSON.parse(message.data);
  const known = devices.get(position.deviceId);
  const info = known ? known.info : { id: position.deviceId, name: null, model: null, status: 'active', records: 0 };
  const device = ensureDevice({
    ...info,
    // The device's count after the commit told (a catch-up or a replay after a reconnect tells
    // the count as the database has it): never counted twice, never back.
    records: Math.max(info.records || 0, position.records ?? (info.records || 0) + position.stored),
    lastSeen: new Date().toISOString(),
    lastPosition: { latitude: position.latitude, longitude: position.longitude, timestamp: position.timestamp },
  });
  showEmptyState();
  const t = Date.parse(position.timestamp);
  if (isLive(range) && mapDevice(device)) {
    if (device.tracked || !device.track) device.layer.appendLive(position.latitude, position.longitude, t);
    if (device.track) device.track.newest = { lat: position.latitude, lon: position.longitude, t };
    reclusters();
  }
  if (selected === position.deviceId) scheduleTableRefresh();
  $('status').textContent = 'live · last update ' + new Date().toLocaleTimeString();
}

let tableRefresh = null;
function scheduleTableRefresh() {
  if (tableRefresh) return;
  tableRefresh = setTimeout(() => {
    tableRefresh = null;
    table.refreshIfFirst().catch(report);
    showDetails();
  }, 500);
}

function report(error) {
  if (error instanceof Unauthorized) return;
  $('status').textContent = 'error: ' + (error && error.message ? error.message : String(error));
}

const showEmptyState = () => showEmptyHint(devices.size === 0);

/** The first view: the device named in the address (#device=id), else the active devices. */
function firstView() {
  const wanted = deviceInAddress();
  if (wanted && devices.has(wanted)) return select(wanted, false);
  const active = activeDevices([...devices.values()].map((device) => device.info));
  fitTo(
    map,
    active.map((info) => devices.get(info.id)),
  );
}

async function start(powers) {
  $('login').hidden = true;
  $('app').hidden = false;
  if (!map) {
    const config = await (await fetch('/dashboard-config.json')).json();
    setSilentAfter(config.silentAfterSeconds * 1000);
    setLateAfter(config.lateAfterSeconds * 1000);
    map = L.map('map', { zoomControl: true, worldCopyJump: true }).setView([20, 0], 2);
    reclusters = startMapLife(map, {
      layers: () => drawnDevices().map((device) => device.layer),
      selected: () => selected,
      select: (id) => devices.has(id) && select(id, false).catch(report),
    });
    // Not awaited: the outline's data (a world at 1:50m) loads while the devices do.
    addBasemap(map, config).catch(() => undefined);
    let zoomTimer = null;
    map.on('zoomend', () => {
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
    setUpSheet(map);
    playback = new Playback(map);
    // A trip's Play button: that trip's window, playing at once.
    document.addEventListener('waypost:play', ({ detail }) => {
      const device = devices.get(detail.deviceId);
      if (device)
        playback.load(detail.deviceId, device.colour, detail.from, detail.to).then(() => playback.play(), report);
    });
    await setUpCommandForm();
  }
  range = currentRange();
  const infos = await apiJson('/api/dashboard/devices');
  // Each device's health state and cause (docs/device-health.md): its row's, its marker's.
  const healthOf = await fleetHealth();
  for (const info of infos) ensureDevice({ ...info, health: healthOf.get(info.id) ?? null });
  keepHealthFresh((states) => applyHealth(states, devices, ensureDevice), report);
  list.flush();
  showEmptyState();
  // The most recently seen devices go on the map; the others wait in the list until picked.
  const recent = infos
    .filter((info) => info.lastSeen)
    .sort((a, b) => Date.parse(b.lastSeen) - Date.parse(a.lastSeen))
    .slice(0, MAP_DEVICES);
  recent.forEach((info, index) => {
    const device = devices.get(info.id);
    mapDevice(device);
    device.tracked = index < TRACKED_DEVICES;
  });
  await loadAll();
  if (!serverFences) {
    serverFences = L.layerGroup();
    startEditors(map, serverFences, powers.write, report, redrawNumbers);
  }
  drawServerGeofences(map, serverFences).catch(report);
  await firstView();
  reclusters();
  source = new EventSource('/api/events');
  source.addEventListener('position', onPosition);
  // Away too long to be told device by device: start again from the database.
  source.addEventListener('reload', () => window.location.reload());
  source.addEventListener('open', () => ($('status').textContent = 'live'));
  // An answer that is no stream (a feed refused: too many open, issue 45) ends the EventSource for
  // good: say so rather than "reconnecting" for ever.
  source.addEventListener('error', (event) => {
    const closed = event.target.readyState === EventSource.CLOSED;
    $('status').textContent = closed ? 'not live (too many live views open?): reload to try again' : 'reconnecting…';
  });
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
