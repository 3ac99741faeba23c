import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { unzipSync, zipSync } from "fflate";
import initSqlJs from "sql.js";
import { describe, expect, it } from "vitest";
import { limits } from "../../limits";
import { zstdFrameAllocation } from "./budget";
import { AnkiImportError } from "./errors";
import { readAnkiPackage } from "./read-package";

const fixtures = fileURLToPath(new URL("../../../../../../shared/fixtures/anki/", import.meta.url));
const fixture = (name: string) => new Uint8Array(readFileSync(`${fixtures}${name}`));

async function failure(promise: Promise<unknown>): Promise<AnkiImportError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AnkiImportError);
  return error as AnkiImportError;
}

/** Sets the "encrypted" flag a zip's central directory holds for its first member. */
function markEncrypted(zip: Uint8Array): Uint8Array {
  const out = zip.slice();
  const view = new DataView(out.buffer);
  for (let i = 0; i + 46 < out.length; i++) {
    if (view.getUint32(i, true) === 0x02014b50) {
      view.setUint16(i + 8, view.getUint16(i + 8, true) | 1, true);
      return out;
    }
  }
  throw new Error("no central directory");
}

/** Rewrites the uncompressed size a zip's central directory declares for one member. */
function declareSize(zip: Uint8Array, member: string, size: number): Uint8Array {
  const out = zip.slice();
  const view = new DataView(out.buffer);
  for (let i = 0; i + 46 < out.length; i++) {
    if (view.getUint32(i, true) !== 0x02014b50) continue;
    const nameLength = view.getUint16(i + 28, true);
    if (new TextDecoder().decode(out.subarray(i + 46, i + 46 + nameLength)) === member) {
      view.setUint32(i + 24, size, true);
      return out;
    }
  }
  throw new Error(`no member ${member}`);
}

async function emptySqlite(): Promise<Uint8Array> {
  const SQL = await initSqlJs();
  const db = new SQL.Database();
  db.exec("create table unrelated (x)");
  const bytes = db.export();
  db.close();
  return bytes;
}

describe("bad packages", () => {
  it("refuses bytes that are not a zip as corrupt", async () => {
    expect((await failure(readAnkiPackage(new TextEncoder().encode("not a zip at all")))).code).toBe("corrupt-file");
  });

  it("refuses a truncated zip as corrupt", async () => {
    const bytes = fixture("bg-hashtable.colpkg");
    expect((await failure(readAnkiPackage(bytes.subarray(0, bytes.length / 2)))).code).toBe("corrupt-file");
  });

  it("refuses a zip without a collection as unsupported", async () => {
    const zip = zipSync({ "notes.txt": new TextEncoder().encode("hello") });
    expect((await failure(readAnkiPackage(zip))).code).toBe("unsupported-format");
  });

  it("refuses an encrypted zip as unsupported", async () => {
    expect((await failure(readAnkiPackage(markEncrypted(fixture("bg-hashtable.colpkg"))))).code).toBe(
      "unsupported-format",
    );
  });

  it("refuses an SQLite file that is not a collection as corrupt", async () => {
    const zip = zipSync({ "collection.anki2": await emptySqlite(), media: new TextEncoder().encode("{}") });
    expect((await failure(readAnkiPackage(zip))).code).toBe("corrupt-file");
  });

  it("refuses a collection member that is not SQLite as corrupt", async () => {
    const zip = zipSync({ "collection.anki2": new TextEncoder().encode("garbage") });
    expect((await failure(readAnkiPackage(zip))).code).toBe("corrupt-file");
  });

  it("refuses a collection whose zstd frame is wrong as corrupt", async () => {
    const members = unzipSync(fixture("bg-hashtable.colpkg"));
    const collection = (members["collection.anki21b"] as Uint8Array).slice();
    collection[0] = 0x00;
    const zip = zipSync({ ...members, "collection.anki21b": collection });
    expect((await failure(readAnkiPackage(zip))).code).toBe("corrupt-file");
  });

  it("refuses a truncated zstd collection as corrupt", async () => {
    const members = unzipSync(fixture("bg-hashtable.colpkg"));
    const collection = members["collection.anki21b"] as Uint8Array;
    const zip = zipSync({ ...members, "collection.anki21b": collection.subarray(0, collection.length / 2) });
    expect((await failure(readAnkiPackage(zip))).code).toBe("corrupt-file");
  });

  it("skips media the map names but the zip lacks, with a reason", async () => {
    const members = unzipSync(fixture("simple-spanish-w-audio.colpkg.apkg"));
    delete members["3"];
    const pkg = await readAnkiPackage(zipSync(members));
    expect(pkg.media).toHaveLength(6);
    expect(pkg.media.map((m) => m.name)).not.toContain("mis-mehores-deseos.mp3");
    expect(pkg.skipped).toContainEqual({ reason: "missing-media", count: 1 });
  });

  it("refuses a media file whose bytes do not decompress as corrupt", async () => {
    const members = unzipSync(fixture("simple-spanish-w-audio.colpkg.apkg"));
    const zip = zipSync({ ...members, "0": new TextEncoder().encode("not zstd") });
    expect((await failure(readAnkiPackage(zip))).code).toBe("corrupt-file");
  });

  it("refuses a zip that declares more than the maximum uncompressed size, before inflating", async () => {
    const zip = declareSize(fixture("collection.apkg"), "collection.anki2", 0xfffffff0);
    expect((await failure(readAnkiPackage(zip))).code).toBe("too-large");
  });

  it("honours a smaller maximum uncompressed size", async () => {
    const error = await failure(readAnkiPackage(fixture("collection.apkg"), { maxUncompressedBytes: 100_000 }));
    expect(error.code).toBe("too-large");
  });

  it("stops a zstd stream that unpacks past the maximum while decompressing", async () => {
    const bytes = fixture("bg-hashtable.colpkg");
    const members = unzipSync(bytes);
    const declared = Object.values(members).reduce((sum, m) => sum + m.length, 0);
    // The zip's declared sizes fit; the zstd collection inside them does not.
    const error = await failure(readAnkiPackage(bytes, { maxUncompressedBytes: declared + 1000 }));
    expect(error.code).toBe("too-large");
  });

  it("refuses a member that inflates past its declared size as corrupt", async () => {
    const zip = declareSize(fixture("collection.apkg"), "collection.anki2", 1000);
    expect((await failure(readAnkiPackage(zip))).code).toBe("corrupt-file");
  });

  it("refuses input over the import limit as too large without reading it", async () => {
    const error = await failure(readAnkiPackage(new Uint8Array(limits.importBytes + 1)));
    expect(error.code).toBe("too-large");
  });
});

describe("zstd frame headers", () => {
  it("refuses a frame declaring more than the maximum before allocating it", async () => {
    const members = unzipSync(fixture("bg-hashtable.colpkg"));
    // A single-segment frame (flags 0xe0: 8-byte content size) claiming 2^40 bytes.
    const header = new Uint8Array([0x28, 0xb5, 0x2f, 0xfd, 0xe0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
    const zip = zipSync({ ...members, "collection.anki21b": header });
    expect((await failure(readAnkiPackage(zip))).code).toBe("too-large");
  });

  it("reads the window a real collection frame needs", () => {
    const members = unzipSync(fixture("bg-hashtable.colpkg"));
    const allocation = zstdFrameAllocation(members["collection.anki21b"] as Uint8Array);
    expect(allocation).toBeGreaterThan(0);
    expect(allocation).toBeLessThan(64 * 1024 * 1024);
  });
});

describe("sql.js loading", () => {
  it("accepts the wasm bytes from the caller, as a browser worker passes them", async () => {
    const wasmPath = createRequire(import.meta.url).resolve("sql.js/dist/sql-wasm.wasm");
    const wasm = readFileSync(wasmPath);
    const wasmBinary = wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength);
    const pkg = await readAnkiPackage(fixture("bg-hashtable.colpkg"), { wasmBinary });
    expect(pkg.notes).toHaveLength(14);
  });

  it("accepts a locateFile for the wasm", async () => {
    const wasmPath = createRequire(import.meta.url).resolve("sql.js/dist/sql-wasm.wasm");
    const pkg = await readAnkiPackage(fixture("bg-hashtable.colpkg"), { locateFile: () => wasmPath });
    expect(pkg.format).toBe("anki21b");
  });
});
