/** The `Prefer` header and the `Accept` media types PostgREST understands. */
import { ApiError } from "./errors.js";

export interface Preferences {
  return: "minimal" | "headers-only" | "representation" | null;
  count: "exact" | "planned" | "estimated" | null;
  resolution: "merge-duplicates" | "ignore-duplicates" | null;
  missingDefault: boolean;
  tx: "commit" | "rollback" | null;
  strict: boolean;
  maxAffected: number | null;
  /** `params=single-object`: the whole JSON body is the one json/jsonb argument. */
  singleObject: boolean;
  /** `timezone=<tz>`: the transaction's TimeZone, ignored when Postgres does not know it. */
  timezone: string | null;
  /** What is echoed in `Preference-Applied`. */
  applied: string[];
}

export function parsePrefer(header: string | undefined): Preferences {
  const prefs: Preferences = {
    return: null,
    count: null,
    resolution: null,
    missingDefault: false,
    tx: null,
    strict: false,
    maxAffected: null,
    singleObject: false,
    timezone: null,
    applied: [],
  };
  const invalid: string[] = [];
  for (const raw of (header ?? "").split(",")) {
    const token = raw.trim();
    if (!token) continue;
    const [name, value] = token.split("=", 2).map((s) => s.trim());
    if (name === "return" && (value === "minimal" || value === "headers-only" || value === "representation")) {
      prefs.return = value;
    } else if (name === "count" && (value === "exact" || value === "planned" || value === "estimated")) {
      prefs.count = value;
    } else if (name === "resolution" && (value === "merge-duplicates" || value === "ignore-duplicates")) {
      prefs.resolution = value;
    } else if (name === "missing" && value === "default") {
      prefs.missingDefault = true;
    } else if (name === "tx" && (value === "commit" || value === "rollback")) {
      prefs.tx = value;
    } else if (name === "handling" && (value === "strict" || value === "lenient")) {
      prefs.strict = value === "strict";
    } else if (name === "params" && value === "single-object") {
      prefs.singleObject = true;
    } else if (name === "timezone" && value) {
      prefs.timezone = value;
    } else if (name === "max-affected" && /^\d+$/.test(value ?? "")) {
      prefs.maxAffected = Number(value);
    } else {
      invalid.push(token);
      continue;
    }
    prefs.applied.push(`${name}=${value}`);
  }
  if (prefs.strict && invalid.length) {
    throw new ApiError(
      400,
      "PGRST122",
      "Invalid preferences given with handling=strict",
      `Invalid preferences: ${invalid.join(", ")}`,
    );
  }
  return prefs;
}

/** `plan-*`: the execution plan of the request instead of its result (`explain()`). */
export type MediaType = "json" | "object" | "csv" | "geojson" | "plan-json" | "plan-text";

const contentTypes: Record<MediaType, string> = {
  json: "application/json; charset=utf-8",
  object: "application/vnd.pgrst.object+json; charset=utf-8",
  csv: "text/csv; charset=utf-8",
  geojson: "application/geo+json; charset=utf-8",
  "plan-json": "application/vnd.pgrst.plan+json; charset=utf-8",
  "plan-text": "application/vnd.pgrst.plan+text; charset=utf-8",
};

export const isPlan = (media: MediaType) => media === "plan-json" || media === "plan-text";

const planOptionNames = ["analyze", "verbose", "settings", "buffers", "wal"] as const;
export type PlanOption = (typeof planOptionNames)[number];

/** The EXPLAIN options of `application/vnd.pgrst.plan…; options=analyze|verbose`. */
export function planOptions(accept: string | undefined): PlanOption[] {
  const part = (accept ?? "").split(",").find((p) => /^\s*application\/vnd\.pgrst\.plan/i.test(p)) ?? "";
  const listed = /;\s*options=([a-z|]*)/i.exec(part)?.[1]?.toLowerCase().split("|") ?? [];
  return planOptionNames.filter((name) => listed.includes(name));
}

export const contentTypeOf = (media: MediaType) => contentTypes[media];

/** The first acceptable type of an Accept header; 406 PGRST107 when none is. */
export function negotiate(accept: string | undefined): MediaType {
  if (!accept) return "json";
  for (const part of accept.split(",")) {
    const type = (part.split(";")[0] ?? "").trim().toLowerCase();
    if (type === "application/vnd.pgrst.array+json") return "json";
    if (type === "application/json" || type === "*/*" || type === "application/*" || type === "") return "json";
    if (type === "application/vnd.pgrst.object+json" || type === "application/vnd.pgrst.object") return "object";
    if (type === "text/csv") return "csv";
    if (type === "application/geo+json") return "geojson";
    if (type === "application/vnd.pgrst.plan" || type === "application/vnd.pgrst.plan+json") return "plan-json";
    if (type === "application/vnd.pgrst.plan+text") return "plan-text";
  }
  throw new ApiError(406, "PGRST107", `None of these media types are available: ${accept}`);
}

/** `…;nulls=stripped` (postgrest-js `stripNulls()`): null-valued keys are dropped. */
export function stripsNulls(accept: string | undefined): boolean {
  return /application\/vnd\.pgrst\.(array|object)\+json;\s*nulls=stripped/i.test(accept ?? "");
}
