/** Stable numeric ids and guids for Anki, derived from Engram's ids so a re-export maps onto the same notes. */

const fnvOffset = 0xcbf29ce484222325n;
const fnvPrime = 0x100000001b3n;
const mask64 = (1n << 64n) - 1n;

/** FNV-1a, 64 bits, over the id's UTF-16 units. */
export function hash64(id: string | number): bigint {
  let hash = fnvOffset;
  for (const char of String(id)) {
    hash ^= BigInt(char.codePointAt(0) ?? 0);
    hash = (hash * fnvPrime) & mask64;
  }
  return hash;
}

/** A positive id below 2^52 (sqlite integer, exact in JS); numeric ids are kept as they are. */
export function ankiId(id: string | number): number {
  if (typeof id === "number" && Number.isSafeInteger(id) && id > 0) return id;
  return Number(hash64(id) & ((1n << 52n) - 1n)) || 1;
}

const base91Table = `abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!#$%&()*+,-./:;<=>?@[]^_\`{|}~`;

/** Anki's `base91` (anki/utils.py): the digits of `value` in its 91-character table. */
export function base91(value: bigint): string {
  let rest = value;
  let out = "";
  while (rest > 0n) {
    out = base91Table[Number(rest % 91n)] + out;
    rest /= 91n;
  }
  return out || "a";
}

/** The note guid Anki would keep: base91 of a 64-bit number drawn from the note id. */
export function noteGuid(noteId: string | number): string {
  return base91(hash64(noteId));
}
