/**
 * Waits for a condition that an asynchronous upload will make true, polling every few ms. Bounded:
 * fails with `what` after `timeoutMs`, so a missing upload is a failure, never a hang.
 */
export async function until(condition: () => boolean | Promise<boolean>, what = 'condition', timeoutMs = 5_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`until: timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/**
 * Lets already-started asynchronous work (a trigger, a request in flight to a local server) run,
 * for assertions that something did NOT happen. Bounded number of event-loop turns; the assertion
 * is about the absence of a request, never about how long something took.
 */
export async function quiesce(turns = 20): Promise<void> {
  for (let i = 0; i < turns; i++) await new Promise((resolve) => setTimeout(resolve, 5));
}
