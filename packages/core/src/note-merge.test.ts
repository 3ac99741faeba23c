import { expect, test } from "vitest";
import { mergeNote, mergeTags } from "./note-merge";

const note = (fields: Record<string, string>, tags: string[] = []) => ({ fields, tags });

test("a field only the other side changed takes their change, and mine theirs", () => {
  const base = note({ front: "Hund", back: "dog" });
  const merged = mergeNote(base, note({ front: "der Hund", back: "dog" }), note({ front: "Hund", back: "the dog" }));
  expect(merged).toEqual({ fields: { front: "der Hund", back: "the dog" }, tags: [], conflicts: [] });
});

test("a field both sides changed alike is no conflict", () => {
  const base = note({ front: "a", back: "b" });
  const merged = mergeNote(base, note({ front: "A", back: "b" }), note({ front: "A", back: "b" }));
  expect(merged).toEqual({ fields: { front: "A", back: "b" }, tags: [], conflicts: [] });
});

test("a field both sides changed differently is a conflict that keeps mine until chosen", () => {
  const base = note({ front: "a", back: "b" });
  const merged = mergeNote(base, note({ front: "mine", back: "b" }), note({ front: "theirs", back: "B" }));
  expect(merged.conflicts).toEqual(["front"]);
  expect(merged.fields).toEqual({ front: "mine", back: "B" });
});

test("emptying a field is a change like any other", () => {
  const base = note({ text: "{{c1::Paris}}", extra: "capital" });
  const merged = mergeNote(
    base,
    note({ text: "{{c1::Paris}}", extra: "" }),
    note({ text: "{{c1::Paris}} is {{c2::big}}", extra: "capital" }),
  );
  expect(merged).toEqual({ fields: { text: "{{c1::Paris}} is {{c2::big}}", extra: "" }, tags: [], conflicts: [] });
});

test("a cloze text both sides changed is a conflict on that field alone", () => {
  const base = note({ text: "{{c1::Paris}}", extra: "" });
  const merged = mergeNote(
    base,
    note({ text: "{{c1::Paris}} and {{c2::Lyon}}", extra: "France" }),
    note({ text: "{{c1::Paris}} and {{c2::Nice}}", extra: "" }),
  );
  expect(merged.conflicts).toEqual(["text"]);
  expect(merged.fields.extra).toBe("France");
});

test("a custom note type's fields merge by name, whatever their names hold", () => {
  const base = note({ Word: "casa", "Back Extra": "", "Ex. (plural)": "casas", 字: "" });
  const merged = mergeNote(
    base,
    note({ Word: "casa", "Back Extra": "<b>house</b>", "Ex. (plural)": "casas", 字: "家" }),
    note({ Word: "la casa", "Back Extra": "", "Ex. (plural)": "las casas", 字: "宅" }),
  );
  expect(merged.fields).toEqual({
    Word: "la casa",
    "Back Extra": "<b>house</b>",
    "Ex. (plural)": "las casas",
    字: "家",
  });
  expect(merged.conflicts).toEqual(["字"]);
});

test("image occlusion's shapes, header and extra merge as fields", () => {
  const base = note({
    image: "m/a.png",
    occlusions: "{{c1::image-occlusion:rect:left=.1}}",
    header: "",
    back_extra: "",
    comments: "",
  });
  const merged = mergeNote(
    base,
    { ...base, fields: { ...base.fields, header: "Heart" } },
    { ...base, fields: { ...base.fields, occlusions: "{{c1::image-occlusion:rect:left=.2}}" } },
  );
  expect(merged.conflicts).toEqual([]);
  expect(merged.fields.header).toBe("Heart");
  expect(merged.fields.occlusions).toBe("{{c1::image-occlusion:rect:left=.2}}");

  const both = mergeNote(
    base,
    { ...base, fields: { ...base.fields, occlusions: "{{c1::image-occlusion:rect:left=.3}}" } },
    { ...base, fields: { ...base.fields, occlusions: "{{c1::image-occlusion:rect:left=.2}}" } },
  );
  expect(both.conflicts).toEqual(["occlusions"]);
});

test("a field one side does not have reads as empty", () => {
  const merged = mergeNote(note({ a: "x" }), note({ a: "x", b: "new" }), note({ a: "y" }));
  expect(merged).toEqual({ fields: { a: "y", b: "new" }, tags: [], conflicts: [] });
});

test("tags: both sides' additions apply, once each, mine's order first", () => {
  expect(mergeTags(["verb"], ["verb", "a1", "both"], ["verb", "both", "irregular"])).toEqual([
    "verb",
    "a1",
    "both",
    "irregular",
  ]);
});

test("tags: a tag either side removed stays removed, even when the other kept it", () => {
  expect(mergeTags(["verb", "a1", "old"], ["verb", "a1"], ["a1", "old"])).toEqual(["a1"]);
});

test("tags: a tag one side removed and the other added again is removed (it was there before)", () => {
  expect(mergeTags(["x"], [], ["x", "y"])).toEqual(["y"]);
});

test("tags compare exactly, as the tag rules do", () => {
  expect(mergeTags([], ["Verb"], ["verb"])).toEqual(["Verb", "verb"]);
});

test("the merge reports tags alongside fields and never asks about them", () => {
  const merged = mergeNote(note({ front: "a" }, ["x"]), note({ front: "a" }, ["x", "mine"]), note({ front: "a" }, []));
  expect(merged).toEqual({ fields: { front: "a" }, tags: ["mine"], conflicts: [] });
});
