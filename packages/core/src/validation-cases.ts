/**
 * Shared examples for the rules of docs/product.md §5. The zod schemas and the database
 * constraints must both accept every `valid` value and reject every
 * `invalid` one; each invalid case names the rule it breaks.
 */
import { limits } from "./limits";
import type { BasicFields } from "./notes";

export type InvalidCase<T> = { value: T; rule: string };
export type CaseList<T> = { valid: T[]; invalid: InvalidCase<T>[] };

const brain = "\u{1F9E0}"; // one code point, two UTF-16 units
const cloze = "{{c1::answer}}";

function manyTags(count: number): string[] {
  return Array.from({ length: count }, (_, index) => `tag${index}`);
}

/** A cloze text of exactly `length` code points. */
function clozeOfLength(length: number): string {
  return cloze + "a".repeat(length - cloze.length);
}

/** `count` deletions numbered 1 to `count`, side by side. */
function numberedClozes(count: number): string {
  return Array.from({ length: count }, (_, index) => `{{c${index + 1}::a}}`).join(" ");
}

/** Deletions nested `depth` deep, numbered `1` or, with `distinct`, 1 to `depth` from the outside in. */
function nestedClozes(depth: number, distinct = false): string {
  const openings = Array.from({ length: depth }, (_, index) => `{{c${distinct ? index + 1 : 1}::`);
  return `${openings.join("")}x${"}}".repeat(depth)}`;
}

/** Side-by-side deletions with a new number each, as many as fit in `length` characters. */
function numberedClozesUpTo(length: number): string {
  let text = "";
  for (let n = 1; ; n += 1) {
    const next = `{{c${n}::a}}`;
    if (text.length + next.length > length) return text;
    text += next;
  }
}

export const validationCases: {
  deckName: CaseList<string>;
  tags: CaseList<string[]>;
  basicFields: CaseList<BasicFields>;
  clozeText: CaseList<string>;
} = {
  deckName: {
    valid: [
      "Spanish verbs",
      "a",
      "a".repeat(limits.deckName),
      `  ${"a".repeat(limits.deckName)}  `,
      brain.repeat(limits.deckName),
      "日本語 N5",
      "Inner  spaces\tand tabs",
    ],
    invalid: [
      { value: "", rule: "empty" },
      { value: " ", rule: "blank after trim" },
      { value: "   ", rule: "blank after trim" },
      { value: "\t\n\r", rule: "blank after trim (all whitespace is trimmed, not only spaces)" },
      { value: "\u00a0", rule: "blank after trim (no-break space)" },
      { value: "\u3000", rule: "blank after trim (ideographic space)" },
      { value: "a".repeat(limits.deckName + 1), rule: "too long" },
      { value: ` ${"a".repeat(limits.deckName + 1)} `, rule: "too long after trim" },
      { value: brain.repeat(limits.deckName + 1), rule: "too long in code points" },
    ],
  },
  tags: {
    valid: [
      [],
      ["a"],
      ["a".repeat(limits.tagLength)],
      [brain.repeat(limits.tagLength)],
      manyTags(limits.tagsPerNote),
      ["Verb", "verb"],
      ["c++", "parent::child", "日本語"],
    ],
    invalid: [
      { value: [""], rule: "empty tag" },
      { value: ["two words"], rule: "whitespace" },
      { value: [" leading"], rule: "whitespace" },
      { value: ["tab\there"], rule: "whitespace" },
      { value: ["line\nbreak"], rule: "whitespace" },
      { value: ["no\u00a0break"], rule: "whitespace (no-break space)" },
      { value: ["a".repeat(limits.tagLength + 1)], rule: "tag too long" },
      { value: [brain.repeat(limits.tagLength + 1)], rule: "tag too long in code points" },
      { value: manyTags(limits.tagsPerNote + 1), rule: "too many tags" },
      { value: ["same", "same"], rule: "duplicate" },
    ],
  },
  basicFields: {
    valid: [
      { front: "a", back: "b" },
      { front: "<b>bold</b>", back: "<i>x</i>" },
      { front: "a".repeat(limits.fieldLength), back: brain.repeat(limits.fieldLength) },
      { front: "&amp;", back: "&NBSP;" },
      { front: "a < b", back: "<" },
      // A picture or a sound is content: image-only Anki cards are common.
      { front: '<img src="flag.png">', back: "France" },
      { front: "Listen", back: '<AUDIO src="hola.mp3"></AUDIO>' },
      // Only spaces are trimmed (Postgres btrim), so a lone newline or tab counts as content.
      { front: "\n", back: "\t" },
      // An empty back is a note Anki takes (a reversed one then has no card 2).
      { front: "a", back: "" },
      { front: "a", back: "<div><br></div>" },
    ],
    invalid: [
      { value: { front: "", back: "b" }, rule: "front empty" },
      { value: { front: "   ", back: "b" }, rule: "front blank" },
      { value: { front: "<b> </b>", back: "b" }, rule: "front markup only" },
      { value: { front: "&nbsp;", back: "b" }, rule: "front only &nbsp;" },
      { value: { front: " &nbsp;<br>&nbsp; ", back: "b" }, rule: "front spaces, &nbsp; and markup" },
      // Not an image: only <img>, <audio> and <video> count as content without text.
      { value: { front: "<image>", back: "b" }, rule: "front unknown tag only" },
      { value: { front: "<imgs></imgs>", back: "b" }, rule: "front look-alike tag only" },
      { value: { front: "a".repeat(limits.fieldLength + 1), back: "b" }, rule: "front too long" },
      { value: { front: "a", back: brain.repeat(limits.fieldLength + 1) }, rule: "back too long in code points" },
    ],
  },
  clozeText: {
    valid: [
      cloze,
      "{{c1::}}",
      "x {{c2::y::hint}} z",
      "{{c1::outer {{c2::inner}}}}",
      "{{c01::leading zero}}",
      "{{c1::a}}}",
      "{{c0::not a deletion}} {{c3::but this is}}",
      `{{c${2 ** 31 - 1}::largest number}}`,
      "{{c1::a {{c3000000000::too big to be a card}} b}}",
      clozeOfLength(limits.fieldLength),
      numberedClozes(limits.clozeNumbersPerNote),
      nestedClozes(limits.clozeNestingDepth),
      // Many deletions sharing a number make one card.
      "{{c1::a}}".repeat(2000),
      // Openings never closed are text, so they do not count towards the depth.
      `${"{{c1::".repeat(limits.clozeNestingDepth + 10)}{{c2::x}}`,
    ],
    invalid: [
      { value: "", rule: "no deletion" },
      { value: "plain text", rule: "no deletion" },
      { value: "{{c0::zero}}", rule: "number 0 is not a deletion" },
      { value: "{{c::no number}}", rule: "no digits" },
      { value: "{{C1::capital}}", rule: "upper-case C" },
      { value: "{{c1:one colon}}", rule: "single colon" },
      { value: "{{ c1::space}}", rule: "space after {{" },
      { value: "{{c1::never closed", rule: "unclosed" },
      { value: "{{c1::half closed}", rule: "unclosed" },
      { value: "}}{{c1::close before open", rule: "unclosed" },
      { value: "{{c-1::negative}}", rule: "no digits" },
      { value: "{{c\uff11::full-width digit}}", rule: "non-ASCII digit" },
      { value: `{{c${2 ** 31}::too big}}`, rule: "number above 2147483647" },
      { value: "{{c1::a {{c3000000000::b}}", rule: "unclosed (a too-big number still takes the }})" },
      { value: clozeOfLength(limits.fieldLength + 1), rule: "too long" },
      { value: numberedClozes(limits.clozeNumbersPerNote + 1), rule: "too many cloze numbers" },
      { value: numberedClozesUpTo(limits.fieldLength), rule: "too many cloze numbers (a full field of them)" },
      { value: nestedClozes(limits.clozeNestingDepth + 1), rule: "nested too deep" },
      {
        value: nestedClozes(1500, true),
        rule: "nested too deep, with too many numbers",
      },
    ],
  },
};
