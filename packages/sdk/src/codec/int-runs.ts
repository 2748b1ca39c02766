import { type ByteReader, type ByteWriter, invalid } from './bytes.js';

/**
 * Integer sequences as first or second differences (a 5 s fix interval is a run of zeros at order
 * 2; a sequence counter too). The encoder takes whichever order gives fewer varint bytes; the
 * decoder refuses any value that leaves the safe integer range.
 */

const varintSize = (value: number): number => {
  const z = value < 0 ? -2 * value - 1 : 2 * value;
  return z < 0x80 ? 1 : z < 0x4000 ? 2 : z < 0x200000 ? 3 : z < 0x10000000 ? 4 : Math.ceil(Math.log2(z + 1) / 7);
};

export function writeInts(out: ByteWriter, values: readonly number[]): void {
  // Both orders' sizes in one pass; then the residuals of the cheaper one.
  let first = 0;
  let second = 0;
  let previous = 0;
  let previousStep = 0;
  for (const value of values) {
    const step = value - previous;
    first += varintSize(step);
    second += varintSize(step - previousStep);
    previous = value;
    previousStep = step;
  }
  const order = second < first ? 2 : 1;
  out.byte(order);
  previous = 0;
  previousStep = 0;
  for (const value of values) {
    const step = value - previous;
    out.int(order === 1 ? step : step - previousStep);
    previous = value;
    previousStep = step;
  }
}

export function readInts(input: ByteReader, count: number): number[] {
  const order = input.byte();
  if (order !== 1 && order !== 2) throw invalid(`difference order ${order} is not 1 or 2`);
  const values: number[] = new Array<number>(count);
  let previous = 0;
  let previousStep = 0;
  for (let i = 0; i < count; i++) {
    const read = input.int();
    const step = order === 1 ? read : previousStep + read;
    const value = previous + step;
    if (!Number.isSafeInteger(value) || !Number.isSafeInteger(step)) throw invalid('an integer column overflows');
    values[i] = value;
    previous = value;
    previousStep = step;
  }
  return values;
}
