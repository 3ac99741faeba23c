/** Sizes and durations as written in config.toml and in Storage API requests. */

/** "50MiB", "10MB", "1GB" or a number of bytes, as Storage's API reads a bucket's file_size_limit (MB = 10⁶). */
export function parseByteSize(value: unknown): number | null {
  if (typeof value === "number") return value;
  if (typeof value !== "string") return null;
  const match = /^\s*(\d+(?:\.\d+)?)\s*([KMG]i?B|B)?\s*$/i.exec(value);
  if (!match) throw new Error(`Cannot read the size "${value}"`);
  const units: Record<string, number> = {
    b: 1,
    kb: 1e3,
    mb: 1e6,
    gb: 1e9,
    kib: 1024,
    mib: 1024 ** 2,
    gib: 1024 ** 3,
  };
  return Math.round(Number(match[1]) * (units[(match[2] ?? "b").toLowerCase()] ?? 1));
}

const binaryUnits: Record<string, number> = { k: 1024, m: 1024 ** 2, g: 1024 ** 3, t: 1024 ** 4, p: 1024 ** 5 };

/**
 * A size in config.toml, read as the CLI does (go-units' RAMInBytes): "5MB"
 * and "5MiB" are both 5 × 1024², a bare number or "B" is bytes. Null when
 * the value is not a size.
 */
export function parseRamSize(value: unknown): number | null {
  if (typeof value === "number") return Number.isInteger(value) && value >= 0 ? value : null;
  if (typeof value !== "string") return null;
  const match = /^(\d+(?:\.\d*)?|\.\d+) ?(?:([kmgtp])(?:i?b)?|b)?$/i.exec(value);
  if (!match) return null;
  return Math.trunc(Number(match[1]) * (binaryUnits[(match[2] ?? "").toLowerCase()] ?? 1));
}

const durationUnits: Record<string, number> = {
  ns: 1e-9,
  us: 1e-6,
  µs: 1e-6,
  μs: 1e-6,
  ms: 1e-3,
  s: 1,
  m: 60,
  h: 3600,
};

/**
 * A Go duration ("1s", "1m30s", "500ms"; a bare number is nanoseconds, as
 * the CLI's decoder takes it) in seconds. Null when the value is not one.
 */
export function parseDuration(value: unknown): number | null {
  if (typeof value === "number") return Number.isInteger(value) ? value / 1e9 : null;
  if (typeof value !== "string") return null;
  if (value === "0") return 0;
  const match = /^([-+]?)((?:(?:\d+(?:\.\d*)?|\.\d+)(?:ns|us|µs|μs|ms|s|m|h))+)$/.exec(value);
  if (!match?.[2]) return null;
  let seconds = 0;
  for (const [, amount, unit] of match[2].matchAll(/(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h)/g)) {
    seconds += Number(amount) * (durationUnits[unit ?? "s"] ?? 1);
  }
  return match[1] === "-" ? -seconds : seconds;
}
