import { describe, expect, test } from "vitest";
import { FindReplaceError, findReplace } from "./find-replace";

const note = { front: "Velocity and density", back: "Speed <b>with</b> direction" };

describe("findReplace", () => {
  test("plain text replaces every match, ignoring case by default", () => {
    expect(findReplace({ front: "Cat, cat and CAT" }, { find: "cat", replace: "dog" })).toEqual({
      fields: { front: "dog, dog and dog" },
      changed: ["front"],
    });
  });

  test("plain text is literal: regex characters and dollar signs mean themselves", () => {
    const result = findReplace({ front: "a.b a+b (x)" }, { find: "a.b", replace: "$1 $&" });
    expect(result.fields.front).toBe("$1 $& a+b (x)");
  });

  test("a regular expression replaces with its groups, as $1", () => {
    const result = findReplace(note, { find: "(\\w+)ity", replace: "$1ITY", regex: true });
    expect(result).toEqual({
      fields: { front: "VelocITY and densITY", back: "Speed <b>with</b> direction" },
      changed: ["front"],
    });
  });

  test("match case leaves other cases alone", () => {
    const result = findReplace({ front: "Cat cat" }, { find: "cat", replace: "dog", matchCase: true });
    expect(result.fields.front).toBe("Cat dog");
  });

  test("one field by name leaves the others as they were", () => {
    const result = findReplace({ front: "one", back: "one" }, { find: "one", replace: "two", field: "back" });
    expect(result).toEqual({ fields: { front: "one", back: "two" }, changed: ["back"] });
  });

  test("a field that does not match is not named as changed", () => {
    expect(findReplace(note, { find: "absent", replace: "x" })).toEqual({ fields: note, changed: [] });
  });

  test("markup is never searched: tag names, attributes and character references stay whole", () => {
    const html = '<b class="bold">bold</b> &amp; <img src="b.png" alt="b > a"><!-- b --> b';
    const result = findReplace({ front: html }, { find: "b", replace: "strong" });
    expect(result.fields.front).toBe(
      '<b class="bold">strongold</b> &amp; <img src="b.png" alt="b > a"><!-- b --> strong',
    );
    const amp = findReplace({ front: "Tom &amp; Jerry" }, { find: "amp", replace: "x" });
    expect(amp.changed).toEqual([]);
  });

  test("a pattern that could match a tag only replaces text", () => {
    const result = findReplace({ front: "<b>bold</b> <i>it</i>" }, { find: "<[^>]+>", replace: "", regex: true });
    expect(result.changed).toEqual([]);
    const words = findReplace({ front: "<b>bold</b> <i>it</i>" }, { find: "\\w+", replace: "w", regex: true });
    expect(words.fields.front).toBe("<b>w</b> <i>w</i>");
  });

  test("an invalid regular expression is a typed error", () => {
    const attempt = () => findReplace(note, { find: "(unclosed", replace: "", regex: true });
    expect(attempt).toThrow(FindReplaceError);
    try {
      attempt();
    } catch (error) {
      expect((error as FindReplaceError).problem).toBe("invalid-regex");
    }
  });

  test("an empty search is a typed error", () => {
    expect(() => findReplace(note, { find: "", replace: "x" })).toThrow(
      expect.objectContaining({ problem: "empty-find" }),
    );
  });
});
