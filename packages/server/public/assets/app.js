/* global L, URLSearchParams */
// The Waypost dashboard: devices and their trips on an offline basemap, a time range, the records
// table, event markers, geofences, live positions (server-sent events) and commands. Plain modules,
// no bundler; Leaflet, topojson-client and world-atlas come from this server's node_modules.
import { apiJson, loggedIn, logIn, logOut, Unauthorized, whenUnauthorized } from './api.js';
import { addBasemap } from './basemap.js';
import { addCommandDevice, setUpCommandForm } from './commands.js';
import { $, el, fill } from './dom.js';
import * as fmt from './format.js';
import { showLogList } from './logs.js';
import { currentRange, isLive, watchRange } from './range.js';
import { RecordsTable } from './records.js';
import { DeviceLayer } from './tracks.js';

const devices = new Map(); // id -> { info, layer, item, track }
let map = null;
let range = { from: null, to: null };
let selected = null;
let source = null;
let focusMarker = null;
let logsSection = null;
let logsFor = null;
const table = new RecordsTable((record) => focusRecord(record));

const rangeQuery = (extra = {}) => {
  const params = new URLSearchParams(extra);
  if (range.from !== null) params.set('from', String(range.from));
  if (range.to !== null) params.set('to', String(range.to));
  return params.toString();
};
const devicePath = (id, what) => '/api/dashboard/devices/' + encodeURIComponent(id) + '/' + what;

function showLogin(message) {
  if (source) source.close();
  source = null;
  $('app').hidden = true;
  $('login').hidden = false;
  $('login-error').textContent = message || '';
  $('token-input').focus();
}

function ensureDevice(info) {
  let device = devices.get(info.id);
  if (!device) {
    const colour = fmt.colourOf(devices.size);
    device = { info, layer: new DeviceLayer(map, info.id, colour, select), item: null, track: null };
    device.item = el('li', { dataset: { device: info.id }, tabIndex: 0, onclick: () => select(info.id) });
    device.item.addEventListener('keydown', (event) => event.key === 'Enter' && select(info.id));
    devices.set(info.id, device);
    $('devices').append(device.item);
    addCommandDevice(info.id);
  }
  device.info = { ...device.info, ...info };
  renderItem(device);
  return device;
}

function renderItem(device) {
  const info = device.info;
  const swatch = el('span', { className: 'swatch' });
  swatch.style.background = device.layer.colour; // CSSOM, allowed under style-src 'self'
  device.item.className = [info.status, selected === info.id ? 'selected' : ''].join(' ').trim();
  fill(
    device.item,
    el('div', { className: 'name' }, swatch, el('strong', {}, info.id), info.model ? ' (' + info.model + ')' : ''),
    el('div', { className: 'meta' }, fmt.text(info.status) + ' · ' + fmt.text(info.records) + ' records'),
    el('div', { className: 'position' }, positionText(info.lastPosition)),
  );
}

function positionText(position) {
  if (!position) return 'no position yet';
  return fmt.coordinates(position.latitude, position.longitude) + ' at ' + fmt.time(Date.parse(position.timestamp));
}

async function loadTrack(device) {
  const zoom = map.getZoom();
  const track = await apiJson(devicePath(device.info.id, 'track') + '?' + rangeQuery({ zoom: String(zoom) }));
  device.track = track;
  device.layer.drawTrack(track);
}

async function loadOverlays(device) {
  const [events, geofences] = await Promise.all([
    apiJson(devicePath(device.info.id, 'events') + '?' + rangeQuery()),
    apiJson(devicePath(device.info.id, 'geofences')),
  ]);
  device.layer.drawEvents(events);
  device.layer.drawGeofences(geofences);
}

async function loadAll() {
  await Promise.all([...devices.values()].map((device) => Promise.all([loadTrack(device), loadOverlays(device)])));
  if (selected) renderDetails();
}

function renderDetails() {
  const device = devices.get(selected);
  const details = $('details');
  if (!device) {
    details.hidden = true;
    return;
  }
  const track = device.track;
  const info = device.info;
  const exportLink = (format) =>
    el(
      'a',
      {
        href:
          '/api/devices/' +
          encodeURIComponent(info.id) +
          '/locations?format=' +
          format +
          '&limit=100000&' +
          rangeQuery(),
        download: info.id + '.' + format,
      },
      format.toUpperCase(),
    );
  const rows = [
    ['Device', info.id],
    ['Model', fmt.text(info.model)],
    ['Status', fmt.text(info.status)],
    ['Records', fmt.text(info.records)],
    ['Last seen', info.lastSeen ? fmt.time(Date.parse(info.lastSeen)) : '–'],
    [
      'Newest in range',
      track && track.newest
        ? fmt.coordinates(track.newest.lat, track.newest.lon) + ' at ' + fmt.time(track.newest.t)
        : 'none',
    ],
    ['Trips', track ? String(track.trips.length) : '–'],
    ['Positions in range', track ? track.positions + (track.truncated ? ' (newest shown)' : '') : '–'],
    ['Points drawn', track ? String(track.trips.reduce((n, t) => n + t.length, 0)) : '–'],
  ];
  // The logs list is loaded once per selection; live updates redraw the rest around it.
  if (logsFor !== info.id) {
    logsFor = info.id;
    logsSection = el('section', { id: 'device-logs' });
    showLogList(info.id, logsSection).catch(report);
  }
  details.hidden = false;
  fill(
    details,
    el('h2', {}, 'Selected device'),
    el('dl', {}, ...rows.flatMap(([term, value]) => [el('dt', {}, term), el('dd', {}, value)])),
    el(
      'p',
      { className: 'exports' },
      'Export: ',
      exportLink('geojson'),
      ' ',
      exportLink('gpx'),
      ' ',
      exportLink('csv'),
    ),
    logsSection,
  );
}

function select(id) {
  selected = id;
  for (const device of devices.values()) {
    device.layer.setHighlighted(device.info.id === id);
    renderItem(device);
  }
  const device = devices.get(id);
  const bounds = device.layer.bounds();
  if (bounds.isValid()) map.fitBounds(bounds.pad(0.2), { maxZoom: 16 });
  $('command-device').value = id;
  renderDetails();
  table.show(id, range).catch(report);
}

function focusRecord(record) {
  if (typeof record.latitude !== 'number' || typeof record.longitude !== 'number') return;
  const point = [record.latitude, record.longitude];
  if (!focusMarker) {
    focusMarker = L.circleMarker(point, {
      radius: 12,
      color: '#000',
      weight: 2,
      fill: false,
      className: 'record-focus',
    }).addTo(map);
  } else focusMarker.setLatLng(point);
  focusMarker.bindTooltip(el('div', {}, fmt.time(record.recordedAt)));
  map.panTo(point);
}

function onPosition(message) {
  const position = JSON.parse(message.data);
  const known = devices.get(position.deviceId);
  const info = known ? known.info : { id: position.deviceId, model: null, status: 'active', records: 0 };
  const device = ensureDevice({
    ...info,
    records: (info.records || 0) + position.stored,
    lastPosition: { latitude: position.latitude, longitude: position.longitude, timestamp: position.timestamp },
  });
  const t = Date.parse(position.timestamp);
  if (isLive(range)) {
    device.layer.appendLive(position.latitude, position.longitude, t);
    if (device.track) device.track.newest = { lat: position.latitude, lon: position.longitude, t };
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
    renderDetails();
  }, 500);
}

function report(error) {
  if (error instanceof Unauthorized) return;
  $('status').textContent = 'error: ' + (error && error.message ? error.message : String(error));
}

/** The whole fleet in view: every device's trips and marker. */
function fitAll() {
  const bounds = L.latLngBounds([]);
  for (const device of devices.values()) {
    const own = device.layer.bounds();
    if (own.isValid()) bounds.extend(own);
  }
  if (bounds.isValid()) map.fitBounds(bounds.pad(0.1), { maxZoom: 16 });
}

async function start() {
  $('login').hidden = true;
  $('app').hidden = false;
  if (!map) {
    const config = await (await fetch('/dashboard-config.json')).json();
    map = L.map('map', { zoomControl: true, worldCopyJump: true }).setView([20, 0], 2);
    await addBasemap(map).catch(() => undefined);
    // A configured tile layer draws over the basemap; without one the map still has outlines.
    if (config.tileUrl) L.tileLayer(config.tileUrl, { maxZoom: 19 }).addTo(map);
    let zoomTimer = null;
    map.on('zoomend', () => {
      clearTimeout(zoomTimer);
      zoomTimer = setTimeout(
        () =>
          Promise.all([...devices.values()].map(loadTrack))
            .then(renderDetails)
            .catch(report),
        200,
      );
    });
    watchRange((next) => {
      range = next;
      loadAll().catch(report);
      if (selected) table.show(selected, range).catch(report);
    });
    await setUpCommandForm();
  }
  range = currentRange();
  const list = await apiJson('/api/dashboard/devices');
  for (const info of list) ensureDevice(info);
  await loadAll();
  fitAll();
  source = new EventSource('/api/events');
  source.addEventListener('position', onPosition);
  source.addEventListener('open', () => ($('status').textContent = 'live'));
  source.addEventListener('error', () => ($('status').textContent = 'reconnecting…'));
  $('status').textContent = source.readyState === 1 ? 'live' : $('status').textContent;
}

whenUnauthorized(() => showLogin('Your session ended: log in again.'));
$('login').addEventListener('submit', async (event) => {
  event.preventDefault();
  const ok = await logIn($('token-input').value.trim());
  $('token-input').value = '';
  if (ok) start().catch(report);
  else showLogin('That is not the admin token.');
});
$('logout').addEventListener('click', async () => {
  await logOut();
  window.location.reload();
});
loggedIn().then(
  (yes) => (yes ? start().catch(report) : showLogin()),
  () => showLogin(),
);
