/**
 * The chunks of a byte stream, read to its end. A failed read is thrown as `readError()`; the
 * stream is cancelled however the caller leaves the loop (done, break or throw).
 */
export async function* streamChunks(
  stream: ReadableStream<Uint8Array>,
  readError: () => Error,
): AsyncGenerator<Uint8Array> {
  const reader = stream.getReader();
  try {
    for (;;) {
      let step: Awaited<ReturnType<typeof reader.read>>;
      try {
        step = await reader.read();
      } catch {
        throw readError();
      }
      if (step.done) return;
      yield step.value;
    }
  } finally {
    reader.cancel().catch(() => {});
  }
}
