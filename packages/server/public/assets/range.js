// The time range the map and the table show: a preset relative to now, or custom bounds.
import { $ } from './dom.js';

const PRESET_MS = { hour: 3600_000, day: 86_400_000, week: 7 * 86_400_000 };

/** { from, to } in epoch ms, null for an open end. */
export function currentRange() {
  const preset = $('range-preset').value;
  if (preset === 'custom') {
    const from = Date.parse($('range-from').value);
    const to = Date.parse($('range-to').value);
    return { from: Number.isNaN(from) ? null : from, to: Number.isNaN(to) ? null : to };
  }
  if (preset in PRESET_MS) return { from: Date.now() - PRESET_MS[preset], to: null };
  return { from: null, to: null };
}

/** Calls onChange with the new range when a preset is picked or custom bounds are applied. */
export function watchRange(onChange) {
  $('range-preset').addEventListener('change', () => {
    const custom = $('range-preset').value === 'custom';
    $('custom-range').hidden = !custom;
    if (!custom) onChange(currentRange());
  });
  $('range-apply').addEventListener('click', () => onChange(currentRange()));
}

/** Whether live positions belong in the range (its end is open). */
export const isLive = (range) => range.to === null;
