/** JSON request bodies: parsed once, refused in PostgREST's words when unusable. */
import { ApiError } from "./errors.js";

/**
 * How deeply a JSON body may nest. The handlers turn bodies back into JSON
 * for SQL with JSON.stringify, which recurses and runs out of stack a few
 * thousand levels down; real rows and arguments stay far below this.
 */
export const maxBodyDepth = 1000;

/** PostgREST's answer to a body it cannot use (PGRST102), for any JSON body. */
export function parseBody(raw: string): unknown {
  if (raw.trim() === "") return undefined;
  let body: unknown;
  try {
    body = JSON.parse(raw);
  } catch {
    throw new ApiError(400, "PGRST102", "Empty or invalid json");
  }
  if (nestsDeeperThan(raw, maxBodyDepth)) {
    throw new ApiError(400, "PGRST102", "Empty or invalid json", `JSON nested more than ${maxBodyDepth} levels deep`);
  }
  return body;
}

/** Whether valid JSON text opens more than `max` arrays or objects inside one another: one pass, no recursion. */
function nestsDeeperThan(json: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < json.length; i += 1) {
    const code = json.charCodeAt(i);
    if (inString) {
      if (code === 0x5c)
        i += 1; // a backslash escapes the next character
      else if (code === 0x22) inString = false;
    } else if (code === 0x22) {
      inString = true;
    } else if (code === 0x5b || code === 0x7b) {
      depth += 1;
      if (depth > max) return true;
    } else if (code === 0x5d || code === 0x7d) {
      depth -= 1;
    }
  }
  return false;
}

export const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);
