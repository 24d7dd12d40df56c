// A server that answers far too much: a body of `size` bytes made only as it is read, so a test can
// tell how much of it the worker read, and a reader that reads it all would take its whole size.

export type HugeAnswer = { response: (init?: ResponseInit) => Response; read: () => number };

export function hugeAnswer(size = 60 * 1024 * 1024): HugeAnswer {
  let read = 0;
  const chunk = new TextEncoder().encode('x'.repeat(64 * 1024));
  const start = new TextEncoder().encode('{"padding":"');
  return {
    read: () => read,
    response: (init) =>
      new Response(
        new ReadableStream<Uint8Array>({
          pull(controller) {
            if (read >= size) return controller.close();
            const next = read === 0 ? start : chunk;
            read += next.byteLength;
            controller.enqueue(next);
          },
        }),
        { headers: { 'Content-Type': 'application/json' }, ...init },
      ),
  };
}
