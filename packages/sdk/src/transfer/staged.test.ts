import { describe, expect, it } from "vitest";
import { batches, type StagedNote, utf8Bytes } from "./staged.js";

const note = (front: string): StagedNote => ({
  guid: null,
  kind: "basic",
  fields: { front, back: "b" },
  tags: [],
  cards: [],
});
const jsonBytes = (notes: StagedNote[]) => new TextEncoder().encode(JSON.stringify({ notes })).length;

describe("staging batches", () => {
  it("counts UTF-8 bytes as the server does", () => {
    for (const text of ["plain", "é", "語", "🦉", "a語🦉é"]) {
      expect(utf8Bytes(text)).toBe(new TextEncoder().encode(text).length);
    }
  });

  it("splits text of several bytes a character by its bytes, keeping each batch well under the server's 4 MiB", () => {
    // 225 KB each in UTF-8 but 75,000 characters: three fit 500 KB by characters, not by bytes.
    const notes = [note("語".repeat(75_000)), note("語".repeat(75_000)), note("語".repeat(75_000))];
    const parts = batches(notes);
    expect(parts.map((part) => part.length)).toEqual([2, 1]);
    for (const part of parts) expect(jsonBytes(part)).toBeLessThanOrEqual(500_100);
  });

  it("puts at most 1,000 notes in a batch", () => {
    const parts = batches(Array.from({ length: 2_500 }, (_, i) => note(`n${i}`)));
    expect(parts.map((part) => part.length)).toEqual([1000, 1000, 500]);
  });
});
