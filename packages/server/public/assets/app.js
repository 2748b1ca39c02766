/* global L, localStorage, URLSearchParams */
// The Waypost dashboard: devices, their tracks, live positions (server-sent events) and commands.
// Plain browser JavaScript, no bundler; Leaflet is served by the server from node_modules.
(function () {
  'use strict';
  const params = new URLSearchParams(window.location.search);
  if (params.get('token')) localStorage.setItem('waypost.adminToken', params.get('token'));
  let token = localStorage.getItem('waypost.adminToken');
  const $ = (id) => document.getElementById(id);
  const devices = new Map(); // id -> { info, marker, line, item }
  let map;

  async function api(path, init) {
    const response = await fetch(path, {
      ...init,
      headers: { authorization: 'Bearer ' + token, 'content-type': 'application/json' },
    });
    if (response.status === 401) {
      localStorage.removeItem('waypost.adminToken');
      showLogin();
      throw new Error('unauthorized');
    }
    return response;
  }

  function showLogin() {
    $('app').hidden = true;
    $('login').hidden = false;
  }

  function positionText(position) {
    if (!position) return 'no position yet';
    return position.latitude.toFixed(5) + ', ' + position.longitude.toFixed(5) + ' at ' + position.timestamp;
  }

  function renderDevice(id) {
    const device = devices.get(id);
    if (!device.item) {
      device.item = document.createElement('li');
      device.item.dataset.device = id;
      $('devices').appendChild(device.item);
      const option = document.createElement('option');
      option.value = id;
      option.textContent = id;
      $('command-device').appendChild(option);
    }
    const info = device.info;
    device.item.className = info.status;
    device.item.innerHTML = '';
    const title = document.createElement('strong');
    title.textContent = id + (info.model ? ' (' + info.model + ')' : '');
    const meta = document.createElement('div');
    meta.textContent = info.status + ' · ' + info.records + ' records';
    const position = document.createElement('div');
    position.className = 'position';
    position.textContent = positionText(info.lastPosition);
    device.item.append(title, meta, position);
  }

  function placeMarker(id, latitude, longitude) {
    const device = devices.get(id);
    const point = [latitude, longitude];
    if (!device.marker) {
      device.marker = L.circleMarker(point, { radius: 7, color: '#0a58ca', fillOpacity: 0.8 }).addTo(map);
      device.marker.bindTooltip(id);
    } else {
      device.marker.setLatLng(point);
    }
    const element = device.marker.getElement && device.marker.getElement();
    if (element) element.setAttribute('data-device', id);
  }

  async function loadTrack(id) {
    const response = await api('/api/devices/' + encodeURIComponent(id) + '/locations?format=geojson&limit=5000');
    if (!response.ok) return;
    const track = await response.json();
    const points = track.features.map((f) => [f.geometry.coordinates[1], f.geometry.coordinates[0]]);
    const device = devices.get(id);
    if (points.length === 0) return;
    device.line = L.polyline(points, { color: '#0a58ca', weight: 2, opacity: 0.6 }).addTo(map);
    const last = points[points.length - 1];
    placeMarker(id, last[0], last[1]);
  }

  async function loadDevices() {
    const list = await (await api('/api/devices')).json();
    const bounds = [];
    for (const info of list) {
      devices.set(info.id, { ...(devices.get(info.id) || {}), info });
      renderDevice(info.id);
      if (info.lastPosition) bounds.push([info.lastPosition.latitude, info.lastPosition.longitude]);
      await loadTrack(info.id);
    }
    if (bounds.length > 0) map.fitBounds(L.latLngBounds(bounds).pad(0.5), { maxZoom: 15 });
  }

  function onPosition(event) {
    const position = JSON.parse(event.data);
    const id = position.deviceId;
    if (!devices.has(id)) {
      devices.set(id, { info: { id, model: null, status: 'active', records: 0, lastPosition: null } });
    }
    const device = devices.get(id);
    device.info.records += position.stored;
    device.info.lastPosition = {
      latitude: position.latitude,
      longitude: position.longitude,
      timestamp: position.timestamp,
    };
    renderDevice(id);
    placeMarker(id, position.latitude, position.longitude);
    if (device.line) device.line.addLatLng([position.latitude, position.longitude]);
    else
      device.line = L.polyline([[position.latitude, position.longitude]], { color: '#0a58ca', weight: 2 }).addTo(map);
    $('status').textContent = 'live · last update ' + new Date().toLocaleTimeString();
  }

  async function queueCommand(event) {
    event.preventDefault();
    const id = $('command-device').value;
    const name = $('command-name').value;
    const argumentText = $('command-argument').value.trim();
    const command = [name];
    try {
      if (argumentText) command.push(JSON.parse(argumentText));
    } catch (error) {
      $('command-result').textContent = 'The argument is not JSON: ' + error.message;
      return;
    }
    const response = await api('/api/devices/' + encodeURIComponent(id) + '/commands', {
      method: 'POST',
      body: JSON.stringify({ command }),
    });
    const body = await response.json();
    $('command-result').textContent = response.ok ? 'Queued #' + body.id + ' for ' + id : body.error;
  }

  async function start() {
    $('login').hidden = true;
    $('app').hidden = false;
    const config = await (await fetch('/dashboard-config.json')).json();
    map = L.map('map', { zoomControl: true }).setView([20, 0], 2);
    // Without a tile URL the map stays offline: tracks drawn on a plain background.
    if (config.tileUrl) L.tileLayer(config.tileUrl, { maxZoom: 19 }).addTo(map);
    $('command-form').addEventListener('submit', queueCommand);
    await loadDevices();
    const source = new EventSource('/api/events?token=' + encodeURIComponent(token));
    source.addEventListener('position', onPosition);
    source.addEventListener('open', () => ($('status').textContent = 'live'));
    source.addEventListener('error', () => ($('status').textContent = 'reconnecting…'));
  }

  $('login').addEventListener('submit', (event) => {
    event.preventDefault();
    token = $('token-input').value.trim();
    localStorage.setItem('waypost.adminToken', token);
    start();
  });
  if (token) start();
  else showLogin();
})();
