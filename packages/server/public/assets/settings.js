/* global localStorage, CustomEvent */
// How the dashboard reads to this person: times in the browser's time zone and language (the
// default) or in UTC, and one unit system, metric or imperial, for every speed and distance.
// Remembered in this browser (localStorage); a change redraws what shows numbers.
import { $, el } from './dom.js';

const KEY = 'waypost.settings';
const DEFAULTS = { timeZone: 'local', units: 'metric' };
const CHOICES = { timeZone: ['local', 'utc'], units: ['metric', 'imperial'] };

function stored() {
  try {
    const saved = JSON.parse(localStorage.getItem(KEY) || '{}');
    const settings = { ...DEFAULTS };
    // Only known values: the storage is this browser's, but a stale or edited entry must not break the page.
    for (const key of Object.keys(CHOICES)) if (CHOICES[key].includes(saved[key])) settings[key] = saved[key];
    return settings;
  } catch {
    return { ...DEFAULTS };
  }
}

let current = stored();

export const settings = () => current;

export function changeSetting(key, value) {
  if (!CHOICES[key] || !CHOICES[key].includes(value)) return;
  current = { ...current, [key]: value };
  try {
    localStorage.setItem(KEY, JSON.stringify(current));
  } catch {
    // Storage refused (a private window's quota): the choice holds for this page only.
  }
  document.dispatchEvent(new CustomEvent('waypost:settings', { detail: current }));
}

const choice = (key, label, options) =>
  el(
    'label',
    {},
    label + ' ',
    el(
      'select',
      { id: 'setting-' + key, onchange: (event) => changeSetting(key, event.target.value) },
      ...options.map(([value, text]) => el('option', { value, selected: current[key] === value }, text)),
    ),
  );

/** The settings panel's controls, into #settings. */
export function showSettings() {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone || 'this browser';
  $('settings').replaceChildren(
    choice('timeZone', 'Times', [
      ['local', 'Local (' + zone + ')'],
      ['utc', 'UTC'],
    ]),
    choice('units', 'Units', [
      ['metric', 'Metric (km, km/h)'],
      ['imperial', 'Imperial (mi, mph)'],
    ]),
  );
}
