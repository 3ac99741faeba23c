/**
 * Several statements written to a pg connection at once and answered after a
 * single Sync: one round trip (one write, one read) instead of one per
 * statement. The server runs them in order and, after an error, skips the rest
 * up to the Sync, so a failed statement is the last one that ran. Only one
 * statement is described and its rows read; the others' rows are skipped unparsed.
 */
import pg from "pg";
import type { Statement } from "./types.js";

// pg's own conversion of JS values to parameters (arrays, dates, objects, …), as client.query uses.
const { prepareValue } = (pg as unknown as { utils: { prepareValue(value: unknown): Buffer | string | null } }).utils;

interface Message {
  fields: unknown[];
}

/** pg.Result as the pipeline uses it: the row descriptions' type parsers turning data rows into objects. */
interface RowReader {
  rows: Record<string, unknown>[];
  addFields(fields: unknown[]): void;
  parseRow(data: unknown[]): Record<string, unknown>;
}

/** The submittable pg's client runs like a query: it writes every message, then routes the replies. */
class Pipeline {
  /** Each statement's parameters as pg sends them, converted before anything is written. */
  private readonly values: (Buffer | string | null)[][];
  private readonly rows: Record<string, unknown>[] = [];
  private reader: RowReader | null = null;
  private failure: unknown = null;
  private settled = false;
  readonly done: Promise<Record<string, unknown>[]>;
  private resolve!: (rows: Record<string, unknown>[]) => void;
  private reject!: (error: unknown) => void;

  constructor(
    private readonly statements: readonly Statement[],
    private readonly returning: number,
  ) {
    this.values = statements.map((statement) => (statement.params ?? []).map((value) => prepareValue(value)));
    this.done = new Promise((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
  }

  submit(connection: pg.Connection): void {
    // Corked, the messages leave in one write.
    connection.stream.cork();
    try {
      this.statements.forEach((statement, i) => {
        connection.parse({ text: statement.text, name: "", types: [] }, true);
        connection.bind({ portal: "", statement: "", values: this.values[i] ?? [] }, true);
        // Without a Describe the server sends no row description, and those rows are skipped.
        if (i === this.returning) connection.describe({ type: "P", name: "" }, true);
        connection.execute({ portal: "" }, true);
      });
      connection.sync();
    } finally {
      connection.stream.uncork();
    }
  }

  handleRowDescription(message: Message): void {
    const reader = new pg.Result("object", pg.types) as unknown as RowReader;
    reader.addFields(message.fields);
    this.reader = reader;
  }

  handleDataRow(message: Message): void {
    if (!this.reader || this.failure) return;
    try {
      this.rows.push(this.reader.parseRow(message.fields));
    } catch (error) {
      this.failure = error;
    }
  }

  handleCommandComplete(): void {
    this.reader = null;
  }

  handleEmptyQuery(): void {}

  handlePortalSuspended(): void {}

  handleCopyInResponse(connection: pg.Connection & { sendCopyFail(message: string): void }): void {
    connection.sendCopyFail("COPY is not supported here");
  }

  handleCopyData(): void {}

  /** A server error (the client stops routing to this query) or a broken connection. */
  handleError(error: unknown): void {
    this.settle(error);
  }

  handleReadyForQuery(): void {
    this.settle(this.failure);
  }

  private settle(error: unknown): void {
    if (this.settled) return;
    this.settled = true;
    if (error) this.reject(error);
    else this.resolve(this.rows);
  }
}

/** Runs `statements` on `client` in one round trip and returns the rows of the one at index `returning`. */
export function pipeline(
  client: pg.ClientBase,
  statements: readonly Statement[],
  returning: number,
): Promise<Record<string, unknown>[]> {
  const batch = new Pipeline(statements, returning);
  client.query(batch as unknown as pg.Submittable);
  return batch.done;
}
