/**
 * The uncompressed-bytes budget shared by every inflate and zstd decompression of
 * one package, so a zip bomb or a zstd bomb stops before it fills memory.
 */
import { Decompress } from "fzstd";
import { AnkiImportError, asCorrupt } from "./errors";

export class ByteBudget {
  private used = 0;

  constructor(readonly max: number) {}

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

/** Decompresses one zstd stream chunk by chunk, counting every output chunk against the budget. */
export function zstdDecompress(data: Uint8Array, budget: ByteBudget, what: string): Uint8Array {
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
