/** A web stream of text chunks made one per pull, saying how many were pulled and whether it was cancelled. */
export function chunkSource(chunks: string[]): {
  stream: ReadableStream<Uint8Array>;
  pulls: () => number;
  cancelled: () => boolean;
} {
  let index = 0;
  let cancelled = false;
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (index === chunks.length) return controller.close();
        controller.enqueue(new TextEncoder().encode(chunks[index++]));
      },
      cancel() {
        cancelled = true;
      },
    },
    // Nothing read ahead: a pull is a chunk the reader asked for.
    { highWaterMark: 0 },
  );
  return { stream, pulls: () => index, cancelled: () => cancelled };
}
