import { errorMessage, fieldErrors } from "../lib/error-messages.js";

export interface FormErrors {
  /** Messages by field name, shown beside each field. */
  fields: Record<string, string>;
  /** Everything wrong, for the summary at the top of the form. */
  summary: { field?: string; message: string }[];
}

export const noErrors: FormErrors = { fields: {}, summary: [] };

/**
 * Splits an SDK error into field messages (for the form's own fields) and a
 * summary. `unnamed` is the field a schema for one value reports as "".
 */
export function formErrors(error: unknown, fields: readonly string[], unnamed?: string): FormErrors {
  if (!error) return noErrors;
  const byField: Record<string, string> = {};
  for (const [field, message] of Object.entries(fieldErrors(error))) {
    const name = field === "" && unnamed ? unnamed : field;
    if (fields.includes(name)) byField[name] ??= message;
  }
  const summary = Object.entries(byField).map(([field, message]) => ({ field, message }));
  return { fields: byField, summary: summary.length > 0 ? summary : [{ message: errorMessage(error) }] };
}

/** Form fields are named; this reads one as text. */
export function textOf(form: FormData, name: string): string {
  const value = form.get(name);
  return typeof value === "string" ? value : "";
}
