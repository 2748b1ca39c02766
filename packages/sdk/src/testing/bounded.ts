/**
 * A wait that ends: `work`, or a rejection naming what was awaited once `ms` of real time passed.
 * The kit's waits go through it so that a regression that never delivers (an upload that never
 * comes, an engine that never idles) fails fast with its reason instead of hanging the test file.
 * The timer never keeps a process alive (unref where the platform has it).
 */
export function within<T>(work: Promise<T>, ms: number, what: () => string): Promise<T> {
  if (!Number.isFinite(ms)) return work;
  return new Promise<T>((resolve, reject) => {
    const timer = globalThis.setTimeout(
      () => reject(new Error(`still waiting after ${ms} ms for ${what()}`)),
      ms,
    ) as unknown as { unref?: () => void };
    timer.unref?.();
    work.then(
      (value) => {
        globalThis.clearTimeout(timer as unknown as ReturnType<typeof setTimeout>);
        resolve(value);
      },
      (error: unknown) => {
        globalThis.clearTimeout(timer as unknown as ReturnType<typeof setTimeout>);
        reject(error as Error);
      },
    );
  });
}

/** How long the kit waits, in real time, for what should take milliseconds over its doubles. */
export const KIT_WAIT_MS = 10_000;
