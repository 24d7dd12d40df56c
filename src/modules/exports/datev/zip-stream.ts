// Several files as one ZIP, streamed as they are made: fflate's streaming Zip hands out its bytes as each entry is
// pushed, and they are sent on at once, so what is held at a time is a page of bookings. The entries are stored,
// not deflated: deflating costs fflate about 25 ms of CPU a MB (a full Buchungsstapel is 20 MB or more), storing
// only a CRC; the files are the same bytes as a single-file answer.
import { Zip, ZipPassThrough } from 'fflate';

export type ZipFile = { name: string; chunks: AsyncIterable<Uint8Array> };

async function* zipChunks(files: AsyncIterable<ZipFile>, mtime: Date): AsyncGenerator<Uint8Array> {
  const pending: Uint8Array[] = [];
  let failure: Error | null = null;
  const zip = new Zip((err, chunk) => {
    if (err) failure = err;
    else pending.push(chunk);
  });
  const drain = function* () {
    if (failure) throw failure;
    yield* pending.splice(0);
  };
  for await (const file of files) {
    const entry = new ZipPassThrough(file.name);
    entry.mtime = mtime;
    zip.add(entry);
    for await (const chunk of file.chunks) {
      entry.push(chunk, false);
      yield* drain();
    }
    entry.push(new Uint8Array(0), true);
    yield* drain();
  }
  zip.end();
  yield* drain();
}

/** The ZIP of `files`, each read only when the one before it is written (entries one after another). */
export function zipStream(files: AsyncIterable<ZipFile>, mtime: Date): ReadableStream<Uint8Array> {
  const chunks = zipChunks(files, mtime);
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await chunks.next();
      if (next.done) controller.close();
      else controller.enqueue(next.value);
    },
    async cancel() {
      await chunks.return(undefined);
    },
  });
}
