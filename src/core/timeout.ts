/** What `within` resolves to when the time ran out first. */
export const TIMED_OUT: unique symbol = Symbol("timed out");

/**
 * Waits for `promise` at most `ms` milliseconds: its value (or its rejection), or TIMED_OUT.
 * The one timeout race of the code base; its timer never outlives the wait.
 */
export async function within<T>(promise: Promise<T>, ms: number): Promise<T | typeof TIMED_OUT> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expiry = new Promise<typeof TIMED_OUT>((resolve) => {
    timer = setTimeout(() => resolve(TIMED_OUT), Math.max(0, ms));
  });
  try {
    return await Promise.race([promise, expiry]);
  } finally {
    clearTimeout(timer);
  }
}

/** Waits for `promise` to settle (either way) or `ms` to pass, whichever comes first. */
export async function settleWithin(promise: Promise<unknown>, ms: number): Promise<void> {
  await within(
    promise.then(
      () => undefined,
      () => undefined,
    ),
    ms,
  );
}
