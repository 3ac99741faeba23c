/** Runs a supabase-js call and turns its `{ data, error }` result into data or a thrown EngramError. */
import { z } from "zod/mini";
import { EngramError, fromPostgrestError, type PostgrestErrorBody, toEngramError } from "./errors.js";

// zod/mini leaves the default messages (a rule without its own message) to a locale; English, as classic zod has.
z.config(z.locales.en());

interface PostgrestResult<T> {
  data: T | null;
  error: PostgrestErrorBody | null;
  status: number;
}

/** Awaits a PostgREST query (table or RPC) and returns its data, throwing the mapped error. */
export async function run<T>(query: PromiseLike<PostgrestResult<T>>): Promise<T> {
  let result: PostgrestResult<T>;
  try {
    result = await query;
  } catch (error) {
    throw toEngramError(error);
  }
  if (result.error) throw fromPostgrestError(result.error, result.status);
  return result.data as T;
}

/** PostgREST's max_rows: lists longer than this are read a page at a time. */
const maxRows = 1000;

/** Every row of a query too long for one response: `page(from, to)` adds `.range(from, to)`. */
export async function runAllPages<T>(page: (from: number, to: number) => PromiseLike<PostgrestResult<unknown[]>>) {
  const rows: T[] = [];
  for (let from = 0; ; from += maxRows) {
    const batch = (await run(page(from, from + maxRows - 1))) as T[];
    rows.push(...batch);
    if (batch.length < maxRows) return rows;
  }
}

/** One problem with an input, for a form to show beside its field. */
export interface FieldIssue {
  field: string;
  message: string;
}

/**
 * Validates input with one of @engram/core's zod schemas before any request, so
 * bad input fails fast with the field and rule, and nothing is sent.
 */
export function validate<S extends z.core.$ZodType>(schema: S, input: unknown): z.output<S> {
  const result = z.safeParse(schema, input);
  if (result.success) return result.data;
  const issues: FieldIssue[] = result.error.issues.map((issue) => ({
    field: issue.path.map(String).join("."),
    message: issue.message,
  }));
  const first = result.error.issues[0];
  return fail(first?.message ?? "Invalid input.", {
    field: issues[0]?.field || undefined,
    rule: first?.code,
    issues,
  });
}

function fail(
  message: string,
  options: { field: string | undefined; rule: string | undefined; issues: FieldIssue[] },
): never {
  throw new EngramError("validation", message, { field: options.field, rule: options.rule, detail: options.issues });
}
