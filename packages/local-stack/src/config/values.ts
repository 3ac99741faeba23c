/**
 * The value types of config.toml as the Supabase CLI reads them, as zod
 * schemas: `env(NAME)` in any value reads that environment variable (kept
 * as written when unset, as the CLI does), and a value that came from the
 * environment is converted to the setting's type, since an environment
 * variable is always text.
 */
import { z } from "zod";
import { parseDuration, parseRamSize } from "./units.js";

export type Env = Record<string, string | undefined>;

const envReference = /^env\((.*)\)$/;

/** A value read from the environment through `env(NAME)`: always text, converted to the setting's type. */
class EnvValue {
  constructor(readonly text: string) {}
}

/** Replaces every `env(NAME)` string of a parsed file whose variable is set; unset ones stay as written. */
export function substituteEnv(value: unknown, env: Env): unknown {
  if (typeof value === "string") {
    const name = envReference.exec(value)?.[1];
    const resolved = name === undefined ? undefined : env[name];
    return resolved ? new EnvValue(resolved) : value;
  }
  if (Array.isArray(value)) return value.map((item) => substituteEnv(item, env));
  if (value && typeof value === "object" && [null, Object.prototype].includes(Object.getPrototypeOf(value))) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, substituteEnv(item, env)]));
  }
  return value;
}

const resolveText = (value: unknown) => (value instanceof EnvValue ? value.text : value);

function resolveNumber(value: unknown): unknown {
  if (!(value instanceof EnvValue)) return value;
  return /^\s*\d+\s*$/.test(value.text) ? Number(value.text) : value.text;
}

/** Go's strconv.ParseBool, which the CLI applies to environment values. */
function resolveBoolean(value: unknown): unknown {
  if (!(value instanceof EnvValue)) return value;
  if (["1", "t", "T", "TRUE", "true", "True"].includes(value.text)) return true;
  if (["0", "f", "F", "FALSE", "false", "False"].includes(value.text)) return false;
  return value.text;
}

/** How an offending value reads in a message. */
export function describeValue(value: unknown): string {
  if (value === undefined) return "nothing";
  if (Array.isArray(value)) return "a list";
  if (value && typeof value === "object") return "a table";
  return JSON.stringify(value) ?? String(value);
}

const mustBe = (what: string) => (issue: { input?: unknown }) => `must be ${what}, not ${describeValue(issue.input)}`;

export const text = () => z.preprocess(resolveText, z.string({ error: mustBe("a string") })).optional();

export const flag = () => z.preprocess(resolveBoolean, z.boolean({ error: mustBe("true or false") })).optional();

export const uint = (max = Number.MAX_SAFE_INTEGER) =>
  z
    .preprocess(
      resolveNumber,
      z
        .number({ error: mustBe("a whole number") })
        .int({ error: mustBe("a whole number") })
        .min(0, { error: mustBe("a whole number") })
        .max(max, { error: mustBe(`a whole number up to ${max}`) }),
    )
    .optional();

export const port = () => uint(65535);

export const list = () =>
  z
    .array(z.preprocess(resolveText, z.string({ error: mustBe("a string") })), { error: mustBe("a list of strings") })
    .optional();

export const oneOf = <const T extends readonly [string, ...string[]]>(values: T) =>
  z
    .preprocess(
      resolveText,
      z.enum(values, { error: mustBe(`one of ${values.map((value) => JSON.stringify(value)).join(", ")}`) }),
    )
    .optional();

/** A size such as "50MiB" or "5MB" (go-units' RAMInBytes: binary units) or a number of bytes, as bytes. */
export const size = () =>
  z
    .preprocess(resolveText, z.unknown())
    .transform((value, context) => {
      const bytes = parseRamSize(value);
      if (bytes !== null) return bytes;
      context.addIssue({ code: "custom", input: value, message: mustBe('a size such as "50MiB"')({ input: value }) });
      return z.NEVER;
    })
    .optional();

/** A Go duration such as "1s", "1m30s" or "500ms" (a bare number is nanoseconds, as in Go), as seconds. */
export const duration = () =>
  z
    .preprocess(resolveText, z.unknown())
    .transform((value, context) => {
      const seconds = parseDuration(value);
      if (seconds !== null) return seconds;
      context.addIssue({ code: "custom", input: value, message: mustBe('a duration such as "1s"')({ input: value }) });
      return z.NEVER;
    })
    .optional();

/** A table with a fixed set of keys; any other key is refused with the closest known one suggested. */
export function section<Shape extends z.ZodRawShape>(shape: Shape) {
  const known = Object.keys(shape);
  return z
    .strictObject(shape, {
      error: (issue) =>
        issue.code === "unrecognized_keys"
          ? issue.keys.map((key) => unknownKeyMessage(key, known)).join("\n")
          : mustBe("a table")(issue),
    })
    .optional();
}

/** A table of named entries (buckets, functions, providers…), each of one shape. */
export const tableOf = <Value extends z.ZodType>(value: Value) =>
  z.record(z.string(), value, { error: mustBe("a table") }).optional();

function unknownKeyMessage(key: string, known: string[]): string {
  const closest = closestKey(key, known);
  return `${key} is not a setting${closest ? ` (did you mean ${closest}?)` : ""}`;
}

function closestKey(key: string, known: string[]): string | undefined {
  let best: { key: string; distance: number } | undefined;
  for (const candidate of known) {
    const distance = editDistance(key.toLowerCase(), candidate.toLowerCase());
    if (!best || distance < best.distance) best = { key: candidate, distance };
  }
  return best && best.distance <= Math.max(2, Math.floor(key.length / 3)) ? best.key : undefined;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current[j] = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, substitution);
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}
