import { describe, expect, it } from 'vitest';
import { ParseAdmission } from '../src/ingest/parse-admission.js';

/** Admits tickets of the given sizes; `entered` lists their names in the order they entered. */
function rig(budget: number) {
  const admission = new ParseAdmission(budget);
  const entered: string[] = [];
  const leave = new Map<string, () => void>();
  const arrive = (name: string, bytes: number) =>
    leave.set(
      name,
      admission.admit(bytes, () => entered.push(name)),
    );
  return { admission, entered, arrive, leave: (name: string) => leave.get(name)!() };
}

describe('the parse admission (bodies parsed at once, bounded by their bytes)', () => {
  it('admits bodies while they fit, then one for each that leaves, in arrival order', () => {
    const { admission, entered, arrive, leave } = rig(100);
    arrive('a', 40);
    arrive('b', 40);
    arrive('c', 40); // 120 > 100: waits
    arrive('d', 10); // fits, but arrived after c: waits behind it
    expect(entered).toEqual(['a', 'b']);
    expect([admission.inUseBytes, admission.waitingCount]).toEqual([80, 2]);
    leave('a');
    expect(entered).toEqual(['a', 'b', 'c', 'd']);
    expect([admission.inUseBytes, admission.waitingCount]).toEqual([90, 0]);
  });

  it('admits a body larger than the whole budget alone, once nothing else is admitted', () => {
    const { admission, entered, arrive, leave } = rig(100);
    arrive('small', 10);
    arrive('huge', 500);
    arrive('after', 10);
    expect(entered).toEqual(['small']);
    leave('small');
    expect(entered).toEqual(['small', 'huge']);
    expect(admission.inUseBytes).toBe(500);
    leave('huge');
    expect(entered).toEqual(['small', 'huge', 'after']);
  });

  it('forgets a body whose request ended while it waited, and counts each leave once', () => {
    const { admission, entered, arrive, leave } = rig(100);
    arrive('a', 90);
    arrive('gone', 50);
    arrive('b', 50);
    leave('gone'); // its connection closed while it waited: never parsed
    expect(admission.waitingCount).toBe(1);
    leave('a');
    leave('a'); // 'close' after the answer's own close: nothing more
    expect(entered).toEqual(['a', 'b']);
    expect([admission.inUseBytes, admission.waitingCount]).toEqual([50, 0]);
    leave('b');
    leave('gone');
    expect([admission.inUseBytes, admission.waitingCount]).toEqual([0, 0]);
  });
});
