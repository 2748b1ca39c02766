/** `promise`, or a failure naming what was awaited once `ms` pass: a hang becomes a failed test. */
export function within<T>(promise: Promise<T>, ms: number, what: string | (() => string)): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    // A function is read when the time is up: what was printed by then, say.
    timer = setTimeout(() => reject(new Error(`${typeof what === 'string' ? what : what()}: not within ${ms} ms`)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}
