/** Loads sql.js once per wasm source and opens a database from bytes. */
import initSqlJs, { type Database, type SqlJsStatic } from "sql.js";
import { AnkiImportError } from "./errors";
import type { AnkiReadOptions } from "./types";

let defaultSqlJs: Promise<SqlJsStatic> | undefined;
const bySource = new WeakMap<object, Promise<SqlJsStatic>>();

function loadSqlJs(options: AnkiReadOptions): Promise<SqlJsStatic> {
  const source = options.wasmBinary ?? options.locateFile;
  if (source) {
    let loading = bySource.get(source);
    if (!loading) {
      loading = initSqlJs({
        ...(options.wasmBinary ? { wasmBinary: options.wasmBinary } : {}),
        ...(options.locateFile ? { locateFile: options.locateFile } : {}),
      });
      bySource.set(source, loading);
    }
    return loading;
  }
  // In Node sql.js finds sql-wasm.wasm beside its own file; browsers pass a URL or the bytes.
  defaultSqlJs ??= initSqlJs();
  return defaultSqlJs;
}

export async function openDatabase(bytes: Uint8Array, options: AnkiReadOptions): Promise<Database> {
  const SQL = await loadSqlJs(options);
  const header = new TextDecoder().decode(bytes.subarray(0, 15));
  if (header !== "SQLite format 3") {
    throw new AnkiImportError("corrupt-file", "The collection is not an SQLite database.");
  }
  try {
    const db = new SQL.Database(bytes);
    // Schema 18 declares Anki's own "unicase" collation, which sql.js lacks; a table
    // using an unknown collation cannot be read at all. The copy here is read-only and
    // scanned in full, so declaring those columns nocase changes nothing we read.
    db.exec(
      "pragma writable_schema = on; update sqlite_master set sql = replace(sql, 'unicase', 'nocase') where sql like '%unicase%'; pragma writable_schema = reset;",
    );
    return db;
  } catch (error) {
    throw new AnkiImportError("corrupt-file", "The collection database cannot be opened.", { cause: error });
  }
}
