import { type ByteReader, type ByteWriter, invalid } from './bytes.js';

/**
 * Integer sequences as differences of order 1, 2 or 3, FLAC's fixed polynomial predictors: a 5 s
 * fix interval and a sequence counter are runs of zeros at order 2; a vehicle's position and
 * odometer, whose speed changes smoothly, have small third differences. The encoder takes the
 * order whose residuals cost the fewest varint bytes; the decoder refuses any value or difference
 * that leaves the safe integer range.
 *
 * Version 1 of the coding: orders 1 and 2, every difference taken against zeros before the first
 * value (so the second residual of order 2 is about minus the first value). Version 2: order 3
 * too, and the first values warm up (value i is predicted at order min(i, order): the first
 * residual is the value, the second the first difference...), so a high order costs no large
 * residuals at the start of a column.
 */

const varintSize = (value: number): number => {
  const z = value < 0 ? -2 * value - 1 : 2 * value;
  return z < 0x80 ? 1 : z < 0x4000 ? 2 : z < 0x200000 ? 3 : z < 0x10000000 ? 4 : Math.ceil(Math.log2(z + 1) / 7);
};

/** The largest residual magnitude whose zigzag (2|r|) is still a safe integer. */
const MAX_RESIDUAL = 2 ** 52 - 1;

const highestOrder = (version: number): number => (version >= 2 ? 3 : 2);

/** The order residual i is taken at: `order`, or fewer for the first values from version 2. */
const orderAt = (i: number, order: number, warm: boolean): number => (warm && i < order ? Math.max(i, 1) : order);

export function writeInts(out: ByteWriter, values: readonly number[], version: number): void {
  const warm = version >= 2;
  // Version 2: one value (or none) has no order byte; with warm-up every order reads it the same.
  if (warm && values.length <= 1) {
    for (const value of values) out.int(value);
    return;
  }
  let third = highestOrder(version) >= 3;
  // Every allowed order's size in one pass; then the residuals of the cheapest (lowest on a tie).
  let size1 = 0;
  let size2 = 0;
  let size3 = 0;
  let previous = 0;
  let previousStep = 0;
  let previousCurve = 0;
  for (let i = 0; i < values.length; i++) {
    const value = values[i]!;
    const step = value - previous;
    const curve = step - previousStep;
    const jerk = curve - previousCurve;
    size1 += varintSize(step);
    size2 += varintSize(warm && i < 2 ? step : curve);
    if (third) {
      const residual = i < 3 ? (i < 2 ? step : curve) : jerk;
      if (Math.abs(residual) > MAX_RESIDUAL) third = false;
      else size3 += varintSize(residual);
    }
    previous = value;
    previousStep = step;
    previousCurve = curve;
  }
  let order = size2 < size1 ? 2 : 1;
  if (third && size3 < Math.min(size1, size2)) order = 3;
  out.byte(order);
  previous = 0;
  previousStep = 0;
  previousCurve = 0;
  for (let i = 0; i < values.length; i++) {
    const value = values[i]!;
    const step = value - previous;
    const curve = step - previousStep;
    const at = orderAt(i, order, warm);
    out.int(at === 1 ? step : at === 2 ? curve : curve - previousCurve);
    previous = value;
    previousStep = step;
    previousCurve = curve;
  }
}

export function readInts(input: ByteReader, count: number, version: number): number[] {
  const warm = version >= 2;
  const highest = highestOrder(version);
  const order = warm && count <= 1 ? 1 : input.byte();
  if (order < 1 || order > highest) throw invalid(`difference order ${order} is not 1 to ${highest}`);
  const values: number[] = new Array<number>(count);
  let previous = 0;
  let previousStep = 0;
  let previousCurve = 0;
  for (let i = 0; i < count; i++) {
    const read = input.int();
    const at = orderAt(i, order, warm);
    let step: number;
    let curve: number;
    if (at === 1) {
      step = read;
      curve = step - previousStep;
    } else {
      curve = at === 2 ? read : previousCurve + read;
      step = previousStep + curve;
    }
    const value = previous + step;
    if (!Number.isSafeInteger(value) || !Number.isSafeInteger(step) || !Number.isSafeInteger(curve)) {
      throw invalid('an integer column overflows');
    }
    values[i] = value;
    previous = value;
    previousStep = step;
    previousCurve = curve;
  }
  return values;
}
