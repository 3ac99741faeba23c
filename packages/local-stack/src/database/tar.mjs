// Reads the tar archives PGlite writes and ships (ustar: its extension bundles,
// `dumpDataDir`'s data directories): plain JavaScript, for the worker thread too.
// Ours, not the `tar` package: that one held 17 MB more while unpacking a kept
// database (31 against 14 MB), which took a first start past 300 MB.
import { closeSync, mkdirSync, openSync, writeSync } from "node:fs";
import { dirname, join } from "node:path";

const decoder = new TextDecoder();
const block = 512;

/** A header field as text, up to its first NUL. */
function field(header, from, length) {
  const bytes = header.subarray(from, from + length);
  const end = bytes.indexOf(0);
  return decoder.decode(end === -1 ? bytes : bytes.subarray(0, end));
}

/**
 * One entry's header: a directory or a regular file, its name relative (a
 * leading "/" or "./" dropped), its mode and size. Null at the archive's end.
 */
function readHeader(header) {
  if (header[0] === 0) return null;
  const size = Number.parseInt(field(header, 124, 12).trim() || "0", 8);
  const mode = Number.parseInt(field(header, 100, 8).trim() || "0", 8);
  const type = String.fromCharCode(header[156] || 48);
  const prefix = field(header, 345, 155);
  const name = `${prefix ? `${prefix}/` : ""}${field(header, 0, 100)}`.replace(/^\.?\/+/, "").replace(/\/$/, "");
  if (type !== "0" && type !== "5") throw new Error(`tar entry ${name} is of a type not expected here (${type})`);
  return { type: type === "0" ? "file" : "directory", name, mode, size: type === "0" ? size : 0 };
}

const padded = (size) => Math.ceil(size / block) * block;

/** The archive's directories and regular files, in order, each file's data a view into `bytes`. */
export function untar(bytes) {
  const entries = [];
  for (let at = 0; at + block <= bytes.length; ) {
    const entry = readHeader(bytes.subarray(at, at + block));
    if (!entry) break;
    at += block;
    const { size, ...rest } = entry;
    entries.push(entry.type === "file" ? { ...rest, data: bytes.subarray(at, at + size) } : rest);
    at += padded(size);
  }
  return entries;
}

/**
 * Writes an archive arriving in chunks (a gunzip stream) into `dir` as it
 * comes, holding no more than a chunk: directories and files with their modes.
 */
export async function extractTar(chunks, dir) {
  let pending = Buffer.alloc(0);
  /** The file being written, the bytes of it still to come, then the padding to skip. */
  let fd = null;
  let remaining = 0;
  let skip = 0;
  let ended = false;
  try {
    for await (const chunk of chunks) {
      pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
      let at = 0;
      while (!ended) {
        if (remaining > 0 || skip > 0) {
          const n = Math.min(remaining > 0 ? remaining : skip, pending.length - at);
          if (n === 0) break;
          if (remaining > 0) {
            writeSync(fd, pending, at, n);
            remaining -= n;
            if (remaining === 0) {
              closeSync(fd);
              fd = null;
            }
          } else skip -= n;
          at += n;
          continue;
        }
        if (pending.length - at < block) break;
        const entry = readHeader(pending.subarray(at, at + block));
        at += block;
        if (!entry) {
          ended = true;
          break;
        }
        const path = join(dir, entry.name);
        if (entry.type === "directory") {
          mkdirSync(path, { recursive: true, mode: entry.mode || 0o700 });
          continue;
        }
        mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
        fd = openSync(path, "w", entry.mode || 0o600);
        remaining = entry.size;
        skip = padded(entry.size) - entry.size;
        if (remaining === 0) {
          closeSync(fd);
          fd = null;
        }
      }
      pending = pending.subarray(at);
    }
  } finally {
    if (fd !== null) closeSync(fd);
  }
  if (!ended && (remaining > 0 || pending.length > 0))
    throw new Error("the tar archive ends in the middle of an entry");
}
