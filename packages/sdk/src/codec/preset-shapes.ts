import { ByteWriter } from './bytes.js';
import { writeKey } from './known-keys.js';

/**
 * Shapes a version 2 table names by number instead of writing them out (docs/wire-format.md,
 * "Preset shapes"): the SDK's default-schema record, so that a single record sent one by one does
 * not spend a third of its body on its key names. A preset is defined as the bytes of the shape
 * written out, its leaves referring to columns 0, 1, 2 ... in order; the list only ever grows at
 * its end.
 */

type PresetShape = readonly (string | readonly [string, PresetShape])[];

const DEFAULT_RECORD: PresetShape = [
  'uuid',
  'timestamp',
  'is_moving',
  'odometer',
  ['coords', ['latitude', 'longitude', 'accuracy', 'speed', 'heading', 'altitude', 'altitude_accuracy']],
  ['activity', ['type', 'confidence']],
  ['battery', ['level', 'is_charging']],
  'extras',
  'sequence',
];

/** The default record of an SDK that numbers its store's numbering (issue 39): version 3. */
const DEFAULT_RECORD_WITH_EPOCH: PresetShape = [...DEFAULT_RECORD, 'sequence_epoch'];

/** The version whose key list the preset bytes are written with (it names every key of every preset). */
const PRESET_KEY_VERSION = 3;

function writePreset(out: ByteWriter, shape: PresetShape, next: { column: number }): void {
  out.uint(shape.length);
  for (const entry of shape) {
    const [key, child] = typeof entry === 'string' ? [entry, null] : entry;
    writeKey(out, JSON.stringify(key), PRESET_KEY_VERSION);
    if (child === null) out.uint(++next.column);
    else {
      out.uint(0);
      writePreset(out, child, next);
    }
  }
}

const bytesOf = (shape: PresetShape): Uint8Array => {
  const out = new ByteWriter();
  writePreset(out, shape, { column: 0 });
  return out.result();
};

/** Preset p (from 1) is PRESET_SHAPES[p - 1]: a shape's bytes as the table grammar writes them. */
export const PRESET_SHAPES: readonly Uint8Array[] = [bytesOf(DEFAULT_RECORD), bytesOf(DEFAULT_RECORD_WITH_EPOCH)];

/** How many presets a version names: version 2 the first, version 3 the second too. */
export const presetsIn = (version: number): number => (version >= 3 ? 2 : version >= 2 ? 1 : 0);

/** The preset number (from 1) of a written-out shape in `version`, or 0. */
export function presetOf(shape: Uint8Array, version: number): number {
  next: for (let p = 0; p < presetsIn(version); p++) {
    const preset = PRESET_SHAPES[p]!;
    if (preset.length !== shape.length) continue;
    for (let i = 0; i < shape.length; i++) if (preset[i] !== shape[i]) continue next;
    return p + 1;
  }
  return 0;
}
