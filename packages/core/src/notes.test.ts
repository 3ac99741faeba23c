import { expect, test } from "vitest";
import { cardOrdinals, isNoteKind } from "./notes";

test("a basic note has one card", () => {
  expect(cardOrdinals({ kind: "basic", fields: { front: "a", back: "b" } })).toEqual([1]);
});

test("a reversed note has a forward and a backward card", () => {
  expect(cardOrdinals({ kind: "basic_reversed", fields: { front: "a", back: "b" } })).toEqual([1, 2]);
});

test("a cloze note has one card per distinct cloze number", () => {
  expect(cardOrdinals({ kind: "cloze", fields: { text: "{{c2::a}} {{c5::b}} {{c2::c}}", extra: "" } })).toEqual([2, 5]);
});

test("a cloze note without valid deletions has no cards", () => {
  expect(cardOrdinals({ kind: "cloze", fields: { text: "{{c1::open", extra: "" } })).toEqual([]);
});

test("recognises the three note kinds and nothing else", () => {
  expect(["basic", "basic_reversed", "cloze", "Basic", 1].map(isNoteKind)).toEqual([true, true, true, false, false]);
});
