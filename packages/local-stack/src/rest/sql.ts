/** The only ways user input reaches SQL: quoted identifiers (already checked against the schema cache) and bound parameters. */

/** Quotes an identifier the way Postgres' quote_ident does, so any name is inert. */
export function quoteIdent(name: string): string {
  if (name.includes("\u0000")) throw new Error("identifier contains NUL");
  return `"${name.replaceAll('"', '""')}"`;
}

export function qualified(schema: string, name: string): string {
  return `${quoteIdent(schema)}.${quoteIdent(name)}`;
}

/** Collects the values of one statement and hands out their `$n` placeholders. */
export class Params {
  readonly values: unknown[] = [];
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}
