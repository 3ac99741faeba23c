// Reads the tar archives PGlite writes and ships (ustar: its extension bundles,
// `dumpDataDir`'s data directories): plain JavaScript, for the worker thread too.

const decoder = new TextDecoder();

/** A header field as text, up to its first NUL. */
function field(header, from, length) {
  const bytes = header.subarray(from, from + length);
  const end = bytes.indexOf(0);
  return decoder.decode(end === -1 ? bytes : bytes.subarray(0, end));
}

/**
 * The archive's directories and regular files, in order, each file's data a
 * view into `bytes`. Names are relative (a leading "/" or "./" dropped).
 */
export function untar(bytes) {
  const entries = [];
  for (let at = 0; at + 512 <= bytes.length; ) {
    const header = bytes.subarray(at, at + 512);
    if (header[0] === 0) break;
    const size = Number.parseInt(field(header, 124, 12).trim() || "0", 8);
    const mode = Number.parseInt(field(header, 100, 8).trim() || "0", 8);
    const type = String.fromCharCode(header[156] || 48);
    const prefix = field(header, 345, 155);
    const name = `${prefix ? `${prefix}/` : ""}${field(header, 0, 100)}`.replace(/^\.?\/+/, "").replace(/\/$/, "");
    at += 512;
    if (type === "0") entries.push({ type: "file", name, mode, data: bytes.subarray(at, at + size) });
    else if (type === "5") entries.push({ type: "directory", name, mode });
    else throw new Error(`tar entry ${name} is of a type not expected here (${type})`);
    at += Math.ceil(size / 512) * 512;
  }
  return entries;
}
