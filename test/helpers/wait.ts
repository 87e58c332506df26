/**
 * Waits for a condition instead of for a time: polls `condition` and returns as soon as it holds;
 * after `boundMs` it throws, naming what never happened (the bound is a failure, not a wait).
 */
export async function waitFor(condition: () => boolean, what: string, boundMs = 10_000): Promise<void> {
  const end = performance.now() + boundMs;
  while (!condition()) {
    if (performance.now() > end) throw new Error(`waited ${boundMs} ms for ${what}, in vain`);
    await Bun.sleep(1);
  }
}
