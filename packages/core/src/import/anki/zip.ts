/**
 * Reads a zip's central directory and inflates single members on demand, so only the
 * members the importer needs are decompressed, each checked against its declared size
 * and the package's byte budget while it inflates.
 */
import { Inflate } from "fflate";
import { type ByteBudget, concatChunks } from "./budget";
import { AnkiImportError, asCorrupt } from "./errors";

type ZipEntry = { name: string; method: number; compressedSize: number; size: number; headerOffset: number };

const utf8 = new TextDecoder("utf-8");

function corrupt(message: string): AnkiImportError {
  return new AnkiImportError("corrupt-file", message);
}

export class ZipArchive {
  readonly entries = new Map<string, ZipEntry>();
  private readonly view: DataView;

  constructor(
    private readonly bytes: Uint8Array,
    private readonly budget: ByteBudget,
  ) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.readDirectory();
  }

  has(name: string): boolean {
    return this.entries.has(name);
  }

  /** The member's bytes, or undefined when the zip has no such member. */
  read(name: string): Uint8Array | undefined {
    const entry = this.entries.get(name);
    if (!entry) return undefined;
    const v = this.view;
    const at = entry.headerOffset;
    if (at + 30 > this.bytes.length || v.getUint32(at, true) !== 0x04034b50) {
      throw corrupt(`The zip member ${name} has no local header.`);
    }
    const start = at + 30 + v.getUint16(at + 26, true) + v.getUint16(at + 28, true);
    const end = start + entry.compressedSize;
    if (end > this.bytes.length) throw corrupt(`The zip member ${name} is truncated.`);
    const raw = this.bytes.subarray(start, end);
    if (entry.method === 0) {
      if (raw.length !== entry.size) throw corrupt(`The stored zip member ${name} has the wrong size.`);
      return raw;
    }
    if (entry.method !== 8) {
      throw new AnkiImportError(
        "unsupported-format",
        `The zip member ${name} uses compression method ${entry.method}.`,
      );
    }
    return this.inflate(raw, entry);
  }

  private inflate(raw: Uint8Array, entry: ZipEntry): Uint8Array {
    const chunks: Uint8Array[] = [];
    let total = 0;
    let ended = false;
    asCorrupt(`The zip member ${entry.name} does not inflate`, () => {
      const stream = new Inflate((chunk, final) => {
        total += chunk.length;
        if (total > entry.size) throw corrupt(`The zip member ${entry.name} inflates past its declared size.`);
        this.budget.take(chunk.length);
        chunks.push(chunk);
        if (final) ended = true;
      });
      const step = 64 * 1024;
      if (raw.length === 0) stream.push(raw, true);
      for (let pos = 0; pos < raw.length; pos += step)
        stream.push(raw.subarray(pos, pos + step), pos + step >= raw.length);
    });
    if (!ended || total !== entry.size) throw corrupt(`The zip member ${entry.name} is truncated.`);
    return concatChunks(chunks, total);
  }

  private readDirectory(): void {
    const v = this.view;
    const n = this.bytes.length;
    let eocd = -1;
    for (let i = n - 22; i >= Math.max(0, n - 22 - 0xffff); i--) {
      if (v.getUint32(i, true) === 0x06054b50) {
        eocd = i;
        break;
      }
    }
    if (eocd < 0) throw corrupt("The file is not a zip archive, or it is truncated.");
    const count = v.getUint16(eocd + 10, true);
    let pos = v.getUint32(eocd + 16, true);
    if (count === 0xffff || pos === 0xffffffff) {
      throw new AnkiImportError("unsupported-format", "Zip64 archives are not supported.");
    }
    let declared = 0;
    for (let i = 0; i < count; i++) {
      if (pos + 46 > n || v.getUint32(pos, true) !== 0x02014b50)
        throw corrupt("The zip's central directory is damaged.");
      const nameLength = v.getUint16(pos + 28, true);
      const entry: ZipEntry = {
        method: v.getUint16(pos + 10, true),
        compressedSize: v.getUint32(pos + 20, true),
        size: v.getUint32(pos + 24, true),
        name: utf8.decode(this.bytes.subarray(pos + 46, pos + 46 + nameLength)),
        headerOffset: v.getUint32(pos + 42, true),
      };
      if (v.getUint16(pos + 8, true) & 1) {
        throw new AnkiImportError("unsupported-format", "Encrypted zip archives are not supported.");
      }
      if (entry.size === 0xffffffff || entry.compressedSize === 0xffffffff) {
        throw new AnkiImportError("unsupported-format", "Zip64 archives are not supported.");
      }
      declared += entry.size;
      this.entries.set(entry.name, entry);
      pos += 46 + nameLength + v.getUint16(pos + 30, true) + v.getUint16(pos + 32, true);
    }
    // The declared sizes are checked before anything is inflated; inflating checks again.
    if (declared > this.budget.max) {
      throw new AnkiImportError("too-large", `The package declares ${declared} uncompressed bytes.`);
    }
  }
}
