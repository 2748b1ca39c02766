// The selected device's key (issue 40), for a tracker that cannot refresh a token (OwnTracks,
// OsmAnd, Traccar Client, Overland, GPSLogger, the Capacitor plugin): make one, shown once here to
// copy into the app (the server keeps only a hash); make it again to replace it (the old key stops
// at once), or revoke it. docs/trackers.md says where each app takes it.
import { routeJson } from '../base/api.js';
import type { Reply } from '../api-types.js';
import { el } from '../base/dom.js';
import * as fmt from '../settings/format.js';

const KEY_ROUTE = '/api/devices/{id}/key';
type KeyState = Pick<Reply<typeof KEY_ROUTE>, 'createdAt' | 'revokedAt'>;

/** A details section (deviceId, rangeQuery, report): the device's key state and its controls. */
export function deviceKeySection(
  deviceId: string,
  _rangeQuery: unknown,
  report: (error: unknown) => void,
): HTMLElement {
  const params = { id: deviceId };
  const state = el('p', { className: 'hint', id: 'device-key-state' }, 'Loading…');
  const shown = el('input', { id: 'device-key', readOnly: true, hidden: true, ariaLabel: 'Device key' });
  const copy = el('button', { type: 'button', hidden: true }, 'Copy');
  // navigator.clipboard is absent outside a secure context (plain http on a LAN address).
  copy.addEventListener('click', () => void navigator.clipboard?.writeText(shown.value).catch(() => undefined));
  const make = el('button', { type: 'button', id: 'device-key-make' }, 'Make key');
  const revoke = el('button', { type: 'button', id: 'device-key-revoke', hidden: true }, 'Revoke');

  const showState = (key: KeyState): void => {
    if (key.createdAt) state.textContent = 'A key made ' + fmt.time(Date.parse(key.createdAt)) + ' is in force.';
    else if (key.revokedAt) state.textContent = 'Its key was revoked ' + fmt.time(Date.parse(key.revokedAt)) + '.';
    else state.textContent = 'No key: the device uploads with a token, or none.';
    make.textContent = key.createdAt ? 'Replace key' : 'Make key';
    revoke.hidden = !key.createdAt;
  };
  const load = (): Promise<void> => routeJson(KEY_ROUTE, { method: 'get', params }).then(showState).catch(report);

  make.addEventListener('click', async () => {
    try {
      const made = await routeJson(KEY_ROUTE, { method: 'post', params });
      shown.value = made.key;
      shown.hidden = false;
      copy.hidden = false;
      shown.select();
      showState({ createdAt: made.createdAt, revokedAt: null });
    } catch (error) {
      report(error);
    }
  });
  revoke.addEventListener('click', async () => {
    try {
      await routeJson(KEY_ROUTE, { method: 'delete', params });
      shown.value = '';
      shown.hidden = true;
      copy.hidden = true;
      await load();
    } catch (error) {
      report(error);
    }
  });
  void load();
  return el(
    'section',
    { id: 'device-key-panel' },
    el('h3', {}, 'Device key'),
    el(
      'p',
      { className: 'hint' },
      'For a tracker app that cannot refresh a token. Shown once, when made: copy it into the app.',
    ),
    el('div', { className: 'share-form' }, make, revoke),
    el('div', { className: 'share-form' }, shown, copy),
    state,
  );
}
