import { describe, expect, test } from "vitest";
import { canonicalHtml } from "./html-test-support";
import type { Note } from "./notes";
import { renderCard } from "./render";

const cloze = (text: string, extra = ""): Note => ({ kind: "cloze", fields: { text, extra } });

describe("basic notes", () => {
  test("show the question on the front, and the question, an answer rule and the answer on the back", () => {
    const faces = renderCard({ kind: "basic", fields: { front: "<b>Q</b>", back: "A" } }, 1);
    expect(faces.front).toBe("<b>Q</b>");
    expect(canonicalHtml(faces.back)).toBe('<b>Q</b><hr id="answer">A');
  });

  test("swap sides on card 2 of a reversed note", () => {
    const faces = renderCard({ kind: "basic_reversed", fields: { front: "Q", back: "A" } }, 2);
    expect(faces.front).toBe("A");
    expect(canonicalHtml(faces.back)).toBe('A<hr id="answer">Q');
  });

  test("sanitise both sides", () => {
    const faces = renderCard(
      { kind: "basic", fields: { front: "<script>x()</script>Q", back: '<i onclick="x()">A</i>' } },
      1,
    );
    expect(faces.front).toBe("Q");
    expect(canonicalHtml(faces.back)).toBe('Q<hr id="answer"><i>A</i>');
  });
});

describe("type-in notes", () => {
  const typeIn = (front: string, back: string): Note => ({ kind: "type_in", fields: { front, back } });

  test("show the question and the answer box marker on the front", () => {
    expect(renderCard(typeIn("<b>Q</b>", "A"), 1).front).toBe(
      '<b>Q</b>\n\n<engram-type-answer data-field="Back"></engram-type-answer>',
    );
  });

  test("show the question, the answer rule and the comparison marker, not the answer, on the back", () => {
    expect(canonicalHtml(renderCard(typeIn("Q", "A"), 1).back)).toBe(
      'Q\n\n<hr id="answer">\n\n<engram-type-answer data-field="Back" data-reveal=""></engram-type-answer>',
    );
  });

  test("have one card", () => {
    expect(() => renderCard(typeIn("Q", "A"), 2)).toThrow(RangeError);
  });
});

describe("cloze notes", () => {
  test("hide the asked deletion behind [...] on the front", () => {
    expect(renderCard(cloze("The {{c1::sun}} rises"), 1).front).toBe('The <span class="cloze">[...]</span> rises');
  });

  test("show the hint instead of [...] when there is one", () => {
    expect(renderCard(cloze("{{c1::Paris::capital}}"), 1).front).toBe('<span class="cloze">[capital]</span>');
  });

  test("show the hint as text, escaping markup characters", () => {
    expect(renderCard(cloze("{{c1::x::<b>a</b> < b & c}}"), 1).front).toBe(
      '<span class="cloze">[a &lt; b &amp; c]</span>',
    );
  });

  test("reveal the asked deletion on the back", () => {
    expect(renderCard(cloze("The {{c1::sun::star}} rises"), 1).back).toBe('The <span class="cloze">sun</span> rises');
  });

  test("show other deletions' answers on both sides", () => {
    const faces = renderCard(cloze("{{c1::a}} {{c2::b}}"), 2);
    expect(faces).toEqual({ front: 'a <span class="cloze">[...]</span>', back: 'a <span class="cloze">b</span>' });
  });

  test("hide every deletion with the asked number", () => {
    expect(renderCard(cloze("{{c1::a}} {{c1::b}}"), 1).front).toBe(
      '<span class="cloze">[...]</span> <span class="cloze">[...]</span>',
    );
  });

  test("render deletions nested in another card's answer", () => {
    const text = "{{c1::big {{c2::red}} ball}}";
    expect(renderCard(cloze(text), 2).front).toBe('big <span class="cloze">[...]</span> ball');
  });

  test("hide nested deletions together with the outer one", () => {
    expect(renderCard(cloze("{{c1::big {{c2::red}} ball}}"), 1)).toEqual({
      front: '<span class="cloze">[...]</span>',
      back: '<span class="cloze">big red ball</span>',
    });
  });

  test("leave literal cloze-like text as written", () => {
    expect(renderCard(cloze("{{c0::x}} {{c1::y}}"), 1).front).toBe('{{c0::x}} <span class="cloze">[...]</span>');
  });

  test("append extra after a line break on the back, as Anki's cloze back does", () => {
    expect(canonicalHtml(renderCard(cloze("{{c1::a}}", "<i>note</i>"), 1).back)).toBe(
      '<span class="cloze">a</span><br>\n<i>note</i>',
    );
  });

  test("show the text once on the back", () => {
    const back = renderCard(cloze("The {{c1::sun}} rises", "Extra"), 1).back;
    expect(back.split("rises")).toHaveLength(2);
  });

  test("omit the line break when extra is blank", () => {
    expect(renderCard(cloze("{{c1::a}}", "  "), 1).back).toBe('<span class="cloze">a</span>');
  });

  test("sanitise the cloze text", () => {
    expect(canonicalHtml(renderCard(cloze('{{c1::<img src="x" onerror="alert(1)">}}'), 1).back)).toBe(
      '<span class="cloze"><img src="x"></span>',
    );
  });
});

test("refuses a cloze number the text does not contain", () => {
  expect(() => renderCard(cloze("{{c1::a}}"), 2)).toThrow(RangeError);
});

test("refuses card 2 of a basic note", () => {
  expect(() => renderCard({ kind: "basic", fields: { front: "a", back: "b" } }, 2)).toThrow(RangeError);
});

test("passes the media base URL on to the sanitiser", () => {
  const base = "https://media.example.test/deck-1/";
  const note: Note = { kind: "basic", fields: { front: `<img src="${base}a.png">`, back: "b" } };
  expect(canonicalHtml(renderCard(note, 1, { mediaBaseUrl: base }).front)).toBe(`<img src="${base}a.png">`);
});
