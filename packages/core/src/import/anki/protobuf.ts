/**
 * A minimal protobuf wire-format reader: enough for the few fields Anki keeps in
 * protobuf blobs (media map, note type and template configs). Unknown fields are skipped.
 */
import { AnkiImportError } from "./errors";

export type ProtoField = { field: number; wire: number; value: number | Uint8Array };

export function readVarint(bytes: Uint8Array, start: number): { value: number; next: number } {
  let value = 0;
  let scale = 1;
  let pos = start;
  for (let i = 0; i < 10; i++) {
    const byte = bytes[pos++];
    if (byte === undefined) throw new AnkiImportError("corrupt-file", "A protobuf varint runs past its message.");
    value += (byte & 0x7f) * scale;
    scale *= 128;
    if ((byte & 0x80) === 0) return { value, next: pos };
  }
  throw new AnkiImportError("corrupt-file", "A protobuf varint is too long.");
}

/** The top-level fields of one message, in order. Length-delimited values are sub-arrays, not copies. */
export function readFields(bytes: Uint8Array): ProtoField[] {
  const fields: ProtoField[] = [];
  let pos = 0;
  while (pos < bytes.length) {
    const key = readVarint(bytes, pos);
    pos = key.next;
    const field = Math.floor(key.value / 8);
    const wire = key.value % 8;
    if (wire === 0) {
      const v = readVarint(bytes, pos);
      fields.push({ field, wire, value: v.value });
      pos = v.next;
    } else if (wire === 2) {
      const len = readVarint(bytes, pos);
      const end = len.next + len.value;
      if (end > bytes.length) throw new AnkiImportError("corrupt-file", "A protobuf field runs past its message.");
      fields.push({ field, wire, value: bytes.subarray(len.next, end) });
      pos = end;
    } else if (wire === 1 || wire === 5) {
      pos += wire === 1 ? 8 : 4;
      if (pos > bytes.length) throw new AnkiImportError("corrupt-file", "A protobuf field runs past its message.");
    } else {
      throw new AnkiImportError("corrupt-file", `Unsupported protobuf wire type ${wire}.`);
    }
  }
  return fields;
}

const utf8 = new TextDecoder("utf-8");

export function fieldString(fields: ProtoField[], field: number): string | undefined {
  const found = fields.find((f) => f.field === field && f.value instanceof Uint8Array);
  return found ? utf8.decode(found.value as Uint8Array) : undefined;
}

export function fieldNumber(fields: ProtoField[], field: number): number | undefined {
  const found = fields.find((f) => f.field === field && typeof f.value === "number");
  return found ? (found.value as number) : undefined;
}

export function fieldMessages(fields: ProtoField[], field: number): Uint8Array[] {
  return fields.filter((f) => f.field === field && f.value instanceof Uint8Array).map((f) => f.value as Uint8Array);
}
