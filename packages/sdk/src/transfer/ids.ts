/** Deterministic ids, so a retried or repeated import names the same rows the same way. */

/** Each byte's two hex digits, looked up: an import names a review with each of these. */
const hexOfByte = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, "0"));

function uuidOf(bytes: Uint8Array): string {
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x80;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  let hex = "";
  for (const byte of bytes) hex += hexOfByte[byte];
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

async function sha256(key: string): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(key)));
}

/** A UUID (version 8, "custom") from SHA-256 of `key`. */
export async function stableUuid(key: string): Promise<string> {
  return uuidOf((await sha256(key)).slice(0, 16));
}

/**
 * UUIDs for many numbered things under one key (a card's reviews, by their
 * millisecond ids): one hash for the key, the number in the last six bytes, so
 * a history of thousands costs one digest.
 */
export async function stableUuids(key: string): Promise<(id: number) => string> {
  const prefix = (await sha256(key)).slice(0, 10);
  return (id) => {
    const bytes = new Uint8Array(16);
    bytes.set(prefix);
    let rest = Math.trunc(id);
    for (let index = 15; index >= 10; index -= 1) {
      bytes[index] = rest % 256;
      rest = Math.floor(rest / 256);
    }
    return uuidOf(bytes);
  };
}

/** A fresh job id. */
export function newJobId(): string {
  return crypto.randomUUID();
}
