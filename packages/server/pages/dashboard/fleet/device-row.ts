// A device's row in the list, built from its info as text (never HTML).
import { el, fill } from '../base/dom.js';
import * as fmt from '../settings/format.js';
import { healthWords } from '../health/health-words.js';
import type { DeviceInfo } from '../device-info.js';
import { shownState } from '../map/vehicle-state.js';

/** One row of the device list: colour, name (or id), model, status, records, last seen, position. */
export function renderItem(
  device: { info: DeviceInfo; colour: string },
  li: HTMLElement,
  selected: string | null,
): void {
  const info = device.info;
  const swatch = el('span', { className: 'swatch' });
  swatch.style.background = device.colour; // CSSOM, allowed under style-src 'self'
  li.className = [info.status, selected === info.id ? 'selected' : ''].join(' ').trim();
  // The state the server names, as its marker on the map shows it (vehicle-state.js).
  if (info.health) li.setAttribute('data-state', shownState(info.health, ''));
  else li.removeAttribute('data-state');
  // Named "upload": the last time the server heard from the device, not the age of its fix (the map's).
  const seen = info.lastSeen ? 'upload ' + fmt.age(Date.parse(info.lastSeen)) + ' ago' : 'no upload yet';
  fill(
    li,
    el(
      'div',
      { className: 'name' },
      swatch,
      el('strong', {}, info.name || info.id),
      info.model ? el('span', { className: 'model' }, ' (' + info.model + ')') : null,
    ),
    el(
      'div',
      { className: 'meta' },
      fmt.text(info.status) + ' · ' + fmt.text(info.records) + ' records · ' + seen,
      info.health
        ? el('span', { className: 'health-state ' + info.health.state }, ' · ' + healthWords(info.health))
        : null,
      (info.quarantined ?? 0) > 0
        ? el('span', { className: 'quarantined' }, ' · ' + info.quarantined + ' quarantined')
        : null,
    ),
    el('div', { className: 'position' }, positionText(info.lastPosition)),
  );
}

function positionText(position: DeviceInfo['lastPosition']): string {
  if (!position) return 'no position yet';
  const at = position.timestamp ? ' at ' + fmt.time(Date.parse(position.timestamp)) : '';
  return fmt.coordinates(position.latitude, position.longitude) + at;
}
