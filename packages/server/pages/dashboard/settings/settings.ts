// How the dashboard reads to this person: times in the browser's time zone and language (the
// default) or in UTC, and one unit system, metric or imperial, for every speed and distance.
// Remembered in this browser (localStorage); a change redraws what shows numbers.
import { $, el } from '../base/dom.js';

const KEY = 'waypost.settings';
export type Settings = { timeZone: 'local' | 'utc'; units: 'metric' | 'imperial' };
export type SettingKey = keyof Settings;

const DEFAULTS: Settings = { timeZone: 'local', units: 'metric' };
const CHOICES: { [K in SettingKey]: readonly Settings[K][] } = {
  timeZone: ['local', 'utc'],
  units: ['metric', 'imperial'],
};
const KEYS: SettingKey[] = ['timeZone', 'units'];

/** Whether a value is one of a setting's choices (a stored or chosen string, untrusted). */
const isChoice = <K extends SettingKey>(key: K, value: unknown): value is Settings[K] =>
  (CHOICES[key] as readonly unknown[]).includes(value);

function stored(): Settings {
  try {
    const saved = JSON.parse(localStorage.getItem(KEY) || '{}') as Record<string, unknown>;
    const settings = { ...DEFAULTS };
    // Only known values: the storage is this browser's, but a stale or edited entry must not break the page.
    for (const key of KEYS) {
      const value = saved[key];
      if (isChoice(key, value)) (settings as Record<SettingKey, string>)[key] = value;
    }
    return settings;
  } catch {
    return { ...DEFAULTS };
  }
}

let current = stored();

export const settings = (): Settings => current;

export function changeSetting(key: string, value: string): void {
  if (!(KEYS as string[]).includes(key) || !isChoice(key as SettingKey, value)) return;
  current = { ...current, [key]: value };
  try {
    localStorage.setItem(KEY, JSON.stringify(current));
  } catch {
    // Storage refused (a private window's quota): the choice holds for this page only.
  }
  document.dispatchEvent(new CustomEvent('waypost:settings', { detail: current }));
}

const choice = (key: SettingKey, label: string, options: [string, string][]): HTMLLabelElement =>
  el(
    'label',
    {},
    label + ' ',
    el(
      'select',
      {
        id: 'setting-' + key,
        onchange: (event: Event) => changeSetting(key, (event.target as HTMLSelectElement).value),
      },
      ...options.map(([value, text]) => el('option', { value, selected: current[key] === value }, text)),
    ),
  );

/** The settings panel's controls, into #settings. */
export function showSettings(): void {
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
