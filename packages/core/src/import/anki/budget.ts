/**
 * The uncompressed-bytes budget shared by every inflate and zstd decompression of
 * one package, so a zip bomb or a zstd bomb stops before it fills memory.
 */
import { Decompress } from "fzstd";
import { AnkiImportError, asCorrupt } from "./errors";

export class ByteBudget {
  private used = 0;

  constructor(readonly max: number) {}

  get remaining(): number {
    return this.max - this.used;
  }

  /** Counts `n` more bytes; throws too-large once the total passes the maximum. */
  take(n: number): void {
    this.used += n;
    if (this.used > this.max) {
      throw new AnkiImportError("too-large", `The package unpacks to more than ${this.max} bytes.`);
    }
  }
}

const chunkSize = 64 * 1024;

export function concatChunks(chunks: Uint8Array[], total: number): Uint8Array {
  if (chunks.length === 1 && chunks[0]) return chunks[0];
  const out = new Uint8Array(total);
  let pos = 0;
  for (const chunk of chunks) {
    out.set(chunk, pos);
    pos += chunk.length;
  }
  return out;
}

/**
 * The buffer a zstd frame makes its decoder allocate up front: its window, or its whole
 * content size for a single-segment frame. Read from the header so a frame claiming
 * gigabytes is refused before anything is allocated.
 */
export function zstdFrameAllocation(data: Uint8Array): number | undefined {
  if (data.length < 6 || data[0] !== 0x28 || data[1] !== 0xb5 || data[2] !== 0x2f || data[3] !== 0xfd) return undefined;
  const flags = data[4] ?? 0;
  const singleSegment = (flags >> 5) & 1;
  const dictionaryBytes = [0, 1, 2, 4][flags & 3] ?? 0;
  const sizeFlag = flags >> 6;
  const sizeBytes = sizeFlag ? 1 << sizeFlag : singleSegment;
  let pos = 5 + (singleSegment ? 0 : 1) + dictionaryBytes;
  let contentSize = 0;
  for (let i = 0, scale = 1; i < sizeBytes; i++, scale *= 256) contentSize += (data[pos++] ?? 0) * scale;
  if (sizeFlag === 1) contentSize += 256;
  if (singleSegment) return contentSize;
  const descriptor = data[5] ?? 0;
  const base = 2 ** (10 + (descriptor >> 3));
  return base + (base / 8) * (descriptor & 7);
}

/** Decompresses one zstd stream chunk by chunk, counting every output chunk against the budget. */
export function zstdDecompress(data: Uint8Array, budget: ByteBudget, what: string): Uint8Array {
  const allocation = zstdFrameAllocation(data);
  if (allocation !== undefined && allocation > budget.remaining) {
    throw new AnkiImportError(
      "too-large",
      `${what} declares ${allocation} bytes, more than the package may unpack to.`,
    );
  }
  const chunks: Uint8Array[] = [];
  let total = 0;
  let ended = false;
  asCorrupt(`${what} is not valid zstd`, () => {
    const stream = new Decompress((chunk, final) => {
      budget.take(chunk.length);
      chunks.push(chunk);
      total += chunk.length;
      if (final) ended = true;
    });
    for (let pos = 0; pos < data.length; pos += chunkSize) {
      stream.push(data.subarray(pos, pos + chunkSize), pos + chunkSize >= data.length);
    }
    if (data.length === 0) stream.push(new Uint8Array(0), true);
  });
  if (!ended) throw new AnkiImportError("corrupt-file", `${what} is a truncated zstd stream.`);
  return concatChunks(chunks, total);
}
