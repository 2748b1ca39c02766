// Share links of the selected device: create one for the current time range with an expiry, copy
// its URL, see the device's links and withdraw them. The URL is shown once, when it is created:
// the server keeps only a hash of its token.
import { api, routeJson } from '../base/api.js';
import { el, fill } from '../base/dom.js';
import * as fmt from '../settings/format.js';

const EXPIRIES = [
  ['3600000', 'for 1 hour'],
  ['86400000', 'for 1 day'],
  ['604800000', 'for 7 days'],
  ['2592000000', 'for 30 days'],
];

function linkList(deviceId: string, container: HTMLElement, report: (error: unknown) => void): void {
  routeJson('/api/shares', { method: 'get', params: {}, query: new URLSearchParams({ device: deviceId }).toString() })
    .then((shares) =>
      fill(
        container,
        ...shares.map((share) => {
          const state = share.active
            ? 'valid until ' + (share.expiresAt ? fmt.time(Date.parse(share.expiresAt)) : '?')
            : share.deletedAt
              ? 'withdrawn'
              : 'expired';
          const withdraw = share.active
            ? el('button', { type: 'button', className: 'share-delete', dataset: { share: share.id } }, 'Withdraw')
            : null;
          if (withdraw)
            withdraw.addEventListener('click', async () => {
              await api('/api/shares/' + encodeURIComponent(share.id), { method: 'DELETE' });
              linkList(deviceId, container, report);
            });
          return el(
            'li',
            {},
            (share.from ? fmt.time(Date.parse(share.from)) : 'start') +
              ' → ' +
              (share.to ? fmt.time(Date.parse(share.to)) : 'now') +
              ' · ' +
              state +
              ' ',
            withdraw,
          );
        }),
      ),
    )
    .catch(report);
}

/** A details section (deviceId, rangeQuery, report): builds the form for this device and range. */
export function shareSection(deviceId: string, rangeQuery: string, report: (error: unknown) => void): HTMLElement {
  const range = new URLSearchParams(rangeQuery);
  const expiry = el(
    'select',
    { id: 'share-expiry', ariaLabel: 'Link valid' },
    ...EXPIRIES.map(([value, label]) => el('option', { value }, label)),
  );
  expiry.value = '86400000';
  const url = el('input', { id: 'share-url', readOnly: true, hidden: true, ariaLabel: 'Share link' });
  const copy = el('button', { type: 'button', hidden: true }, 'Copy');
  // navigator.clipboard is absent outside a secure context (plain http on a LAN address).
  copy.addEventListener('click', () => void navigator.clipboard?.writeText(url.value).catch(() => undefined));
  const list = el('ul', { className: 'share-list' });
  const create = el('button', { type: 'button', id: 'share-create' }, 'Create link');
  create.addEventListener('click', async () => {
    const body: { device: string; expiresAt: number; from?: number; to?: number } = {
      device: deviceId,
      expiresAt: Date.now() + Number(expiry.value),
    };
    if (range.get('from')) body.from = Number(range.get('from'));
    if (range.get('to')) body.to = Number(range.get('to'));
    try {
      const share = await routeJson('/api/shares', { method: 'post', params: {}, body });
      url.value = share.url;
      url.dataset.share = share.id;
      url.hidden = false;
      copy.hidden = false;
      url.select();
      linkList(deviceId, list, report);
    } catch (error) {
      report(error);
    }
  });
  linkList(deviceId, list, report);
  return el(
    'section',
    { id: 'share' },
    el('h3', {}, 'Share this track'),
    el(
      'p',
      { className: 'hint' },
      'A read-only link to this device’s track in the current time range, no login needed.',
    ),
    el('div', { className: 'share-form' }, expiry, create),
    el('div', { className: 'share-form' }, url, copy),
    list,
  );
}
