import { type ByteReader, invalid } from './bytes.js';
import { ColumnMode } from './column-encode.js';
import { fromScaled, MAX_DIGITS, MAX_SCALE } from './decimal.js';
import { readInts } from './int-runs.js';
import { IsoTexts, readUuid, samePrefix, uuidText } from './leaf-forms.js';

const MAX_SCALED = 10 ** MAX_DIGITS - 1;

/** Exceptions: positions (as gaps) and exact texts; the regular values fill the other positions. */
function readExceptions(input: ByteReader, count: number): Map<number, string> {
  const total = input.bounded(count, 'an exception count');
  const exceptions = new Map<number, string>();
  let position = -1;
  for (let i = 0; i < total; i++) {
    position += input.bounded(count, 'an exception gap') + 1;
    if (position >= count) throw invalid('an exception lies past the end of its column');
    exceptions.set(position, input.text().text);
  }
  return exceptions;
}

function merge(count: number, exceptions: Map<number, string>, regular: (i: number) => string): string[] {
  const texts = new Array<string>(count);
  let next = 0;
  if (exceptions.size === 0) for (let i = 0; i < count; i++) texts[i] = regular(i);
  else for (let i = 0; i < count; i++) texts[i] = exceptions.get(i) ?? regular(next++);
  return texts;
}

/** Reads `count` values of one column as their exact JSON texts (`version`: of the coding). */
export function decodeColumn(input: ByteReader, count: number, version: number): string[] {
  const mode = input.byte();
  switch (mode) {
    case ColumnMode.Verbatim:
      return Array.from({ length: count }, () => input.text().text);
    case ColumnMode.Dictionary: {
      const size = input.bounded(count, 'a dictionary size');
      const entries = Array.from({ length: size }, () => input.text().text);
      if (size === 1) return new Array<string>(count).fill(entries[0]!);
      return Array.from({ length: count }, () => entries[input.bounded(size - 1, 'a dictionary index')]!);
    }
    case ColumnMode.Decimal: {
      const scale = input.bounded(MAX_SCALE, 'a decimal scale');
      const exceptions = readExceptions(input, count);
      const values = readInts(input, count - exceptions.size, version);
      return merge(count, exceptions, (i) => {
        if (Math.abs(values[i]!) > MAX_SCALED) throw invalid(`a scaled number has more than ${MAX_DIGITS} digits`);
        return fromScaled(values[i]!, scale);
      });
    }
    case ColumnMode.Time: {
      const exceptions = readExceptions(input, count);
      const values = readInts(input, count - exceptions.size, version);
      const times = new IsoTexts();
      return merge(count, exceptions, (i) => times.text(values[i]!));
    }
    case ColumnMode.Uuid: {
      const exceptions = readExceptions(input, count);
      let previous: Uint8Array = new Uint8Array(16);
      let text = '';
      return merge(count, exceptions, () => {
        const next = readUuid(input, previous);
        // Sequential uuids share their first 12 bytes: only the last 4 are formatted anew.
        text = uuidText(next, samePrefix(next, previous) && text !== '' ? text : null);
        previous = next;
        return text;
      });
    }
    default:
      throw invalid(`column mode ${mode} is unknown`);
  }
}
