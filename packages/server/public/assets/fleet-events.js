/* global L */
// Fleet events on the dashboard (issue 21): the server's geofences on the map, and every event
// sink with what waits for it, its dead letters and a replay. Everything from the server is text.
import { apiJson } from './api.js';
import { $, el, fill } from './dom.js';
import * as fmt from './format.js';

const FENCE_STYLE = { color: '#7b2cbf', weight: 2, dashArray: '6 4', fillOpacity: 0.06, className: 'server-geofence' };

/** A geofence's name on the map at its centre, always shown (text, never HTML). */
export function fenceLabel(at, name) {
  return L.marker(at, {
    icon: L.divIcon({
      className: 'geofence-label-icon',
      html: el('span', { className: 'geofence-label' }, name),
      iconSize: null,
    }),
    interactive: false,
    keyboard: false,
  });
}

/** The server-side geofences (POST /api/geofences), drawn for every device. */
export async function drawServerGeofences(map, layer) {
  const geofences = await apiJson('/api/geofences');
  layer.clearLayers();
  for (const fence of geofences) {
    const shape = fence.vertices
      ? L.polygon(fence.vertices, FENCE_STYLE)
      : L.circle([fence.latitude, fence.longitude], { ...FENCE_STYLE, radius: fence.radius });
    const size = fence.vertices ? fence.vertices.length + ' corners' : fence.radius + ' m';
    shape.bindTooltip(el('div', {}, el('strong', {}, fence.identifier), el('div', {}, 'server geofence · ' + size)));
    shape.addTo(layer);
    layer.addLayer(
      fenceLabel(fence.vertices ? shape.getBounds().getCenter() : [fence.latitude, fence.longitude], fence.identifier),
    );
  }
  if (!map.hasLayer(layer)) layer.addTo(map);
  return geofences.length;
}

/** The sinks list: kind, where, waiting, dead letters (with a button that lists them). */
export async function showSinks(report) {
  const section = $('sinks');
  const sinks = await apiJson('/api/sinks');
  section.hidden = sinks.length === 0;
  fill(
    section,
    el('h2', {}, 'Event sinks'),
    el(
      'ul',
      { className: 'sinks' },
      ...sinks.map((sink) =>
        el(
          'li',
          { dataset: { sink: sink.id } },
          el('div', {}, el('strong', {}, sink.kind), ' ', fmt.text(sink.url)),
          el(
            'div',
            { className: 'meta' },
            fmt.text(sink.pending) +
              ' waiting · ' +
              fmt.text(sink.dead) +
              ' dead' +
              (sink.lastError ? ' · last error: ' + fmt.text(sink.lastError) : ''),
          ),
          sink.dead > 0
            ? el(
                'button',
                { type: 'button', className: 'dead-letters', onclick: () => showDead(sink, report).catch(report) },
                'Dead letters',
              )
            : null,
        ),
      ),
    ),
    el('div', { id: 'dead-letters', hidden: true }),
  );
}

async function showDead(sink, report) {
  const box = $('dead-letters');
  const letters = await apiJson('/api/sinks/' + encodeURIComponent(sink.id) + '/dead-letters?limit=100');
  box.hidden = false;
  fill(
    box,
    el('h3', {}, 'Dead letters of ' + sink.kind + ' ' + sink.url),
    el(
      'table',
      { className: 'dead' },
      el('tr', {}, el('th', {}, 'Event'), el('th', {}, 'Device'), el('th', {}, 'Time'), el('th', {}, 'Error')),
      ...letters.map((letter) =>
        el(
          'tr',
          {},
          el('td', {}, fmt.text(letter.event.type)),
          el('td', {}, fmt.text(letter.event.device)),
          el('td', {}, fmt.text(letter.event.timestamp)),
          el('td', {}, fmt.text(letter.lastError)),
        ),
      ),
    ),
    el(
      'button',
      {
        type: 'button',
        className: 'replay',
        onclick: async () => {
          const { replayed } = await apiJson('/api/sinks/' + encodeURIComponent(sink.id) + '/replay', {
            method: 'POST',
            body: '{}',
          });
          await showSinks(report);
          const note = $('dead-letters');
          note.hidden = false;
          fill(note, el('p', { className: 'hint', id: 'replayed' }, replayed + ' events sent again'));
        },
      },
      'Replay all',
    ),
  );
}
