/** Anki's own cases for the typed-answer comparison (rslib/src/typeanswer.rs), and the markers cards carry. */
import { describe, expect, test } from "vitest";
import { longestMatchOpcodes } from "./sequence-matcher";
import { typeAnswerExpected, typeAnswerMarker } from "./type-answer";
import { combiningDiff, compareTypedAnswer, type DiffToken, diffTokens, stripExpected } from "./type-answer-compare";

const good = (text: string): DiffToken => ({ kind: "typeGood", text });
const bad = (text: string): DiffToken => ({ kind: "typeBad", text });
const missing = (text: string): DiffToken => ({ kind: "typeMissed", text });

function tokens(expected: string, typed: string) {
  const diff = combiningDiff(expected, typed);
  return diffTokens(diff.typed, diff.expected);
}

describe("diff tokens", () => {
  test("mark good, bad and missed runs on both lines", () => {
    const output = tokens("¿Y ahora qué vamos a hacer?", "y ahora qe vamosa hacer");
    expect(output.typed).toEqual([
      bad("y"),
      good(" ahora q"),
      bad("e"),
      good(" vamos"),
      missing("-"),
      good("a hacer"),
      missing("-"),
    ]);
    expect(output.expected).toEqual([
      missing("¿Y"),
      good(" ahora q"),
      missing("ué"),
      good(" vamos"),
      missing(" "),
      good("a hacer"),
      missing("?"),
    ]);
  });

  test("compare the expected answer without its markup, sounds and entities", () => {
    const stripped = stripExpected("[sound:foo.mp3]<b>1</b> &nbsp;2");
    expect(tokens(stripped, "1  2").expected).toEqual([good("1  2")]);
  });

  test("show missed characters in the typed line only after a good run", () => {
    expect(tokens("1", "23").typed).toEqual([bad("23")]);
    expect(tokens("12", "1").typed).toEqual([good("1"), missing("-")]);
  });

  test("count missed characters as characters", () => {
    expect(tokens("нос", "нс").typed).toEqual([good("н"), missing("-"), good("с")]);
  });

  test("match Hangul syllables one by one", () => {
    expect(tokens("쓰다듬다", "스다뜸다").typed).toEqual([bad("스"), good("다"), bad("뜸"), good("다")]);
  });

  test("cope with unrelated long text", () => {
    const output = tokens(
      "Сущность должна быть ответственна только за одно дело",
      "Single responsibility Сущность выполняет только одну задачу.Повод для изменения сущности только один.",
    );
    expect(output.expected.map((token) => token.text).join("")).toBe(
      "Сущность должна быть ответственна только за одно дело",
    );
  });
});

describe("compareTypedAnswer", () => {
  test("removes tags from the expected answer", () => {
    expect(stripExpected("<div>123</div>")).toBe("123");
    expect(compareTypedAnswer("123", "<div>123</div>")).toBe(
      '<code id="typeans"><span class="typeGood">123</span></code>',
    );
  });

  test("shows the expected answer alone when nothing was typed", () => {
    expect(compareTypedAnswer("", "<div>123</div>")).toBe('<code id="typeans">123</code>');
  });

  test("escapes a right answer", () => {
    expect(compareTypedAnswer("source <dir>/bin/activate", "source &lt;dir&gt;/bin/activate")).toBe(
      '<code id="typeans"><span class="typeGood">source &lt;dir&gt;/bin/activate</span></code>',
    );
  });

  test("shows a right answer once", () => {
    expect(compareTypedAnswer("123", "123")).toBe('<code id="typeans"><span class="typeGood">123</span></code>');
  });

  test("shows a wrong answer above an arrow and the expected one", () => {
    expect(compareTypedAnswer("1123", "123")).toBe(
      '<code id="typeans"><span class="typeBad">1</span><span class="typeGood">123</span><br><span id="typearrow">&darr;</span><br><span class="typeGood">123</span></code>',
    );
  });

  test("escapes typed markup in a wrong answer", () => {
    expect(compareTypedAnswer("<img src=x onerror=alert(1)>", "cat")).not.toContain("<img");
  });

  test("compares in NFC, so a decomposed accent matches a composed one", () => {
    expect(compareTypedAnswer("cafe\u0301", "café")).toBe(
      '<code id="typeans"><span class="typeGood">café</span></code>',
    );
  });

  test("turns line breaks in the expected answer into spaces", () => {
    expect(stripExpected("one<br>two<div>three</div>\nfour")).toBe("one two three four");
  });

  test("can ignore combining marks, still showing them on the expected line", () => {
    const nc = { combining: false };
    expect(compareTypedAnswer("שנון", "שִׁנּוּן", nc)).toBe('<code id="typeans"><span class="typeGood">שִׁנּוּן</span></code>');
    expect(compareTypedAnswer("חופ", "חוֹף", nc)).toBe(
      '<code id="typeans"><span class="typeGood">חו</span><span class="typeBad">פ</span><br><span id="typearrow">&darr;</span><br><span class="typeGood">חוֹ</span><span class="typeMissed">ף</span></code>',
    );
    expect(compareTypedAnswer("は", "ば", nc)).toBe('<code id="typeans"><span class="typeGood">ば</span></code>');
    expect(compareTypedAnswer("cafe", "café", nc)).toBe('<code id="typeans"><span class="typeGood">café</span></code>');
    expect(compareTypedAnswer("cafe", "café")).toContain('<span class="typeMissed">é</span>');
  });
});

describe("difflib opcodes", () => {
  test("match Python's for a classic example", () => {
    // difflib.SequenceMatcher(None, "qabxcd", "abycdf").get_opcodes()
    const ops = longestMatchOpcodes([..."qabxcd"], [..."abycdf"]).map((op) => [
      op.tag,
      op.aFrom,
      op.aTo,
      op.bFrom,
      op.bTo,
    ]);
    expect(ops).toEqual([
      ["delete", 0, 1, 0, 0],
      ["equal", 1, 3, 0, 2],
      ["replace", 3, 4, 2, 3],
      ["equal", 4, 6, 3, 5],
      ["insert", 6, 6, 5, 6],
    ]);
  });

  test("leave popular items of a long second sequence out of match starts, as autojunk does", () => {
    // 200 x's then "ab": x is popular, so only "ab" can start a match; the x run is still joined on by extension.
    const b = [..."x".repeat(200), "a", "b"];
    const ops = longestMatchOpcodes(["x", "a", "b"], b);
    expect(ops).toEqual([
      { tag: "insert", aFrom: 0, aTo: 0, bFrom: 0, bTo: 199 },
      { tag: "equal", aFrom: 0, aTo: 3, bFrom: 199, bTo: 202 },
    ]);
  });
});

describe("markers", () => {
  test("name the field, with data-reveal on the back", () => {
    expect(typeAnswerMarker("Back")).toBe('<engram-type-answer data-field="Back"></engram-type-answer>');
    expect(typeAnswerMarker('A "B"', { reveal: true })).toBe(
      '<engram-type-answer data-field="A &quot;B&quot;" data-reveal></engram-type-answer>',
    );
    expect(typeAnswerMarker("Back", { reveal: true, combining: false })).toBe(
      '<engram-type-answer data-field="Back" data-reveal data-nc></engram-type-answer>',
    );
  });

  test("find the expected answer by Anki's field name", () => {
    const note = { kind: "type_in", fields: { front: "Q", back: "A" } } as const;
    expect(typeAnswerExpected(note, "Back")).toBe("A");
    expect(typeAnswerExpected(note, "Front")).toBe("Q");
    expect(typeAnswerExpected(note, "Nope")).toBeNull();
    expect(typeAnswerExpected({ kind: "cloze", fields: { text: "t", extra: "e" } }, "Back Extra")).toBe("e");
  });

  test("give a card's cloze answers for type:cloze, once when they are all the same", () => {
    const note = {
      kind: "cloze",
      fields: { text: "{{c1::Paris}} {{c2::big {{c3::red}} ball}} {{c1::Lyon}}", extra: "" },
    } as const;
    expect(typeAnswerExpected(note, "cloze:Text", 1)).toBe("Paris, Lyon");
    expect(typeAnswerExpected(note, "cloze:Text", 2)).toBe("big red ball");
    expect(typeAnswerExpected(note, "cloze:Text", 3)).toBe("red");
    const same = { kind: "cloze", fields: { text: "{{c1::a}} and {{c1::a}}", extra: "" } } as const;
    expect(typeAnswerExpected(same, "cloze:Text", 1)).toBe("a");
  });
});
