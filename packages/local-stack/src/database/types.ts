/** One parameterised statement. */
export interface Statement {
  text: string;
  params?: readonly unknown[];
}

/** The few operations the stack needs from a Postgres connection. */
export interface Queryable {
  /** Runs one parameterised statement and returns its rows. */
  query<Row = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<Row[]>;
  /** Runs a script of one or more statements without parameters. */
  exec(sql: string): Promise<void>;
}

export interface BatchOptions<Row> {
  /** Ends the transaction with a rollback instead of a commit; the rows are still returned. */
  rollback?: boolean;
  /**
   * Looks at the last statement's rows before the transaction ends; throwing rolls it
   * back. The end then waits for the check: one more round trip on PostgreSQL.
   */
  check?: (rows: Row[]) => void;
}

export interface Database extends Queryable {
  readonly kind: "pglite" | "postgres";
  /** Runs `fn` in one transaction: committed if it resolves, rolled back if it throws. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /**
   * Runs `statements` in order in one transaction and returns the last one's rows. On
   * PostgreSQL the transaction's begin, statements and end travel in one round trip.
   * Rolled back if any statement fails.
   */
  batch<Row = Record<string, unknown>>(statements: readonly Statement[], options?: BatchOptions<Row>): Promise<Row[]>;
  close(): Promise<void>;
}
