// One ZIP written into object storage as it is made, never whole in memory: fflate's streaming Zip hands out
// its bytes as each entry is pushed, and they go to an R2 multipart upload in parts of PART_SIZE. R2 wants every
// part but the last of one size and at least 5 MiB; so what is held at a time is one part and the entry being
// written. Entries are written one after another (fflate buffers an entry added before the last one ended).
import { Zip, ZipDeflate, ZipPassThrough } from 'fflate';
import { BundleTooLarge } from './bounds';

/** R2's smallest part (but the last): 5 MiB. */
export const PART_SIZE = 5 * 1024 * 1024;

/**
 * Without ZIP64 (which fflate does not write) a ZIP holds at most 65,535 entries and 4 GiB: an entry's offset and the
 * central directory's are 32 bits. The writer stops before either, leaving room for the central directory
 * (46 bytes and a name per entry).
 */
export const zipLimits = { entries: 65_535, bytes: 2 ** 32 - 1 - 64 * 1024 * 1024 }; // an object, so that a test can lower it

export class ZipUpload {
  /** Bytes written so far: once finished, the ZIP's size. */
  size = 0;
  private readonly zip: Zip;
  private pending: Uint8Array[] = [];
  private failure: Error | null = null;
  private part = new Uint8Array(PART_SIZE);
  private filled = 0;
  private readonly parts: R2UploadedPart[] = [];
  private entries = 0;

  constructor(private readonly upload: R2MultipartUpload, private readonly mtime: Date) {
    this.zip = new Zip((err, chunk) => {
      if (err) this.failure = err;
      else {
        this.pending.push(chunk);
        this.size += chunk.length;
      }
    });
  }

  /** An entry from bytes already at hand: deflated (text) or stored as it is (PDFs and images, compressed already). */
  async add(name: string, bytes: Uint8Array, deflate: boolean): Promise<void> {
    const entry = this.entry(name, deflate);
    entry.push(bytes, true);
    await this.flush();
  }

  /** An entry from chunks as they come: a CSV a page of rows at a time, an original read from storage. */
  async addStream(name: string, chunks: AsyncIterable<Uint8Array>, deflate: boolean): Promise<void> {
    const entry = this.entry(name, deflate);
    for await (const chunk of chunks) {
      entry.push(chunk, false);
      await this.flush();
    }
    entry.push(new Uint8Array(0), true);
    await this.flush();
  }

  /** The central directory, the last part, and the upload completed. */
  async finish(): Promise<R2Object> {
    this.zip.end();
    await this.flush();
    this.parts.push(await this.upload.uploadPart(this.parts.length + 1, this.part.subarray(0, this.filled)));
    return this.upload.complete(this.parts);
  }

  /** Gives the upload up (a failed job): R2 drops its parts. */
  async abort(): Promise<void> {
    await this.upload.abort().catch(() => undefined);
  }

  private entry(name: string, deflate: boolean): ZipDeflate | ZipPassThrough {
    if (++this.entries > zipLimits.entries) throw new BundleTooLarge(`A bundle holds at most ${zipLimits.entries.toLocaleString('en-US')} files; ask for a shorter period.`);
    const entry = deflate ? new ZipDeflate(name, { level: 6 }) : new ZipPassThrough(name);
    entry.mtime = this.mtime;
    this.zip.add(entry);
    return entry;
  }

  /** Moves what the Zip wrote into parts, uploading each one as it fills. */
  private async flush(): Promise<void> {
    if (this.failure) throw this.failure;
    if (this.size > zipLimits.bytes) throw new BundleTooLarge('The bundle would be larger than 4 GB, more than a ZIP holds; ask for a shorter period.');
    const chunks = this.pending;
    this.pending = [];
    for (const chunk of chunks) {
      let at = 0;
      while (at < chunk.length) {
        const take = Math.min(PART_SIZE - this.filled, chunk.length - at);
        this.part.set(chunk.subarray(at, at + take), this.filled);
        this.filled += take;
        at += take;
        if (this.filled === PART_SIZE) {
          this.parts.push(await this.upload.uploadPart(this.parts.length + 1, this.part));
          this.part = new Uint8Array(PART_SIZE);
          this.filled = 0;
        }
      }
    }
  }
}
