// The time range the map and the table show: a preset relative to now, or custom bounds.
import { $ } from './dom.js';

/** { from, to } in epoch ms, null for an open end. */
export type Range = { from: number | null; to: number | null };

const PRESET_MS: Record<string, number> = { hour: 3600_000, day: 86_400_000, week: 7 * 86_400_000 };

/** { from, to } in epoch ms, null for an open end. */
export function currentRange(): Range {
  const preset = $<HTMLSelectElement>('range-preset').value;
  if (preset === 'custom') {
    const from = Date.parse($<HTMLInputElement>('range-from').value);
    const to = Date.parse($<HTMLInputElement>('range-to').value);
    return { from: Number.isNaN(from) ? null : from, to: Number.isNaN(to) ? null : to };
  }
  const presetMs = PRESET_MS[preset];
  if (presetMs !== undefined) return { from: Date.now() - presetMs, to: null };
  return { from: null, to: null };
}

/** Calls onChange with the new range when a preset is picked or custom bounds are applied. */
export function watchRange(onChange: (range: Range) => void): void {
  $('range-preset').addEventListener('change', () => {
    const custom = $<HTMLSelectElement>('range-preset').value === 'custom';
    $('custom-range').hidden = !custom;
    if (!custom) onChange(currentRange());
  });
  $('range-apply').addEventListener('click', () => onChange(currentRange()));
}

/** Whether live positions belong in the range (its end is open). */
export const isLive = (range: Range): boolean => range.to === null;
