import { describe, expect, it } from "vitest";
import type { RawCard, RawCollection, RawNoteType } from "./collection";
import { mapNotes, soundToAudio, stockKind } from "./mapping";

const noteType = (
  id: number,
  name: string,
  fields: string[],
  templates: [string, string][] = [["{{Front}}", "{{FrontSide}}<hr id=answer>{{Back}}"]],
  kind: "normal" | "cloze" = "normal",
): RawNoteType => ({
  id,
  name,
  kind,
  fields,
  css: ".card { text-align: left; }",
  originalStockKind: 0,
  templates: templates.map(([qfmt, afmt], ord) => ({ name: `Card ${ord + 1}`, ord, qfmt, afmt })),
});

const rawCard = (id: number, nid: number, ord: number, queue = 0): RawCard => ({
  id,
  nid,
  did: 1,
  ord,
  type: 0,
  queue,
  due: 1,
  ivl: 0,
  factor: 0,
  reps: 0,
  lapses: 0,
});

function collection(types: RawNoteType[], notes: [number, number, string[]][], cards: RawCard[]): RawCollection {
  return {
    schedulerVersion: 2,
    createdAtSeconds: 0,
    noteTypes: new Map(types.map((t) => [t.id, t])),
    decks: new Map([[1, "Languages::Spanish"]]),
    deckConfigIds: new Map([[1, 1]]),
    deckConfigs: [],
    notes: notes.map(([id, mid, fields]) => ({ id, guid: `g${id}`, mid, fields, tags: ["t"] })),
    cards,
    revlog: [],
  };
}

function map(c: RawCollection) {
  const skipped: Record<string, number> = {};
  const notes = mapNotes(c, (reason, count = 1) => {
    skipped[reason] = (skipped[reason] ?? 0) + count;
  });
  return { notes, skipped };
}

describe("soundToAudio", () => {
  it("turns [sound:…] into an audio element keeping the exact name", () => {
    expect(soundToAudio("hi [sound:my file (1).mp3]")).toBe('hi <audio controls src="my file (1).mp3"></audio>');
  });

  it("escapes quotes and ampersands in the name", () => {
    expect(soundToAudio('[sound:a"&b.mp3]')).toBe('<audio controls src="a&quot;&amp;b.mp3"></audio>');
  });
});

describe("stockKind", () => {
  it("recognises stock names, also with Anki's copy suffix", () => {
    expect(stockKind(noteType(1, "Basic-2d5e7", ["Front", "Back"]))).toBe("basic");
    expect(stockKind(noteType(1, "Basic (type in the answer)", ["Front", "Back"]))).toBe("type_in");
    expect(stockKind(noteType(1, "Basic (and reversed card)-36b32", ["Front", "Back"]))).toBe("basic_reversed");
    expect(stockKind(noteType(1, "Basic (optional reversed card)", ["Front", "Back", "Add Reverse"]))).toBe(
      "basic_optional_reversed",
    );
  });

  it("treats a stock name with other fields as custom", () => {
    expect(stockKind(noteType(1, "Basic", ["Front", "Back", "Notes"]))).toBeUndefined();
    expect(stockKind(noteType(1, "Vocabulary", ["Front", "Back"]))).toBeUndefined();
  });
});

describe("mapNotes", () => {
  it("maps Basic to basic with the Anki card kept", () => {
    const { notes } = map(
      collection(
        [noteType(1, "Basic", ["Front", "Back"])],
        [[10, 1, ["Q", "A [sound:a.mp3]"]]],
        [rawCard(100, 10, 0, -1)],
      ),
    );
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatchObject({
      kind: "basic",
      guid: "g10",
      deckName: "Languages::Spanish",
      fields: { front: "Q", back: 'A <audio controls src="a.mp3"></audio>' },
      rawFields: { Front: "Q", Back: "A [sound:a.mp3]" },
      tags: ["t"],
    });
    expect(notes[0]?.cards[0]).toMatchObject({ ankiCardId: 100, ordinal: 1, suspended: true, buried: false });
  });

  it("maps Basic (and reversed card) to basic_reversed with ordinals 1 and 2", () => {
    const type = noteType(
      1,
      "Basic (and reversed card)",
      ["Front", "Back"],
      [
        ["{{Front}}", ""],
        ["{{Back}}", ""],
      ],
    );
    const { notes } = map(collection([type], [[10, 1, ["Q", "A"]]], [rawCard(100, 10, 0), rawCard(101, 10, 1, -3)]));
    expect(notes[0]?.kind).toBe("basic_reversed");
    expect(notes[0]?.cards.map((c) => [c.ankiCardId, c.ordinal, c.buried])).toEqual([
      [100, 1, false],
      [101, 2, true],
    ]);
  });

  it("maps the optional reversed type by its Add Reverse field", () => {
    const type = noteType(
      1,
      "Basic (optional reversed card)",
      ["Front", "Back", "Add Reverse"],
      [
        ["{{Front}}", ""],
        ["{{Back}}", ""],
      ],
    );
    const { notes } = map(
      collection(
        [type],
        [
          [10, 1, ["Q", "A", "y"]],
          [11, 1, ["Q2", "A2", ""]],
        ],
        [rawCard(100, 10, 0), rawCard(101, 10, 1), rawCard(102, 11, 0)],
      ),
    );
    expect(notes.map((n) => n.kind)).toEqual(["basic_reversed", "basic"]);
  });

  it("maps cloze types, renamed ones too, to text and extra, ordinals from the cloze number", () => {
    const type = noteType(2, "Cloze-11d35", ["Text", "Back Extra"], [["{{cloze:Text}}", "{{cloze:Text}}"]], "cloze");
    const { notes, skipped } = map(
      collection(
        [type],
        [[10, 2, ["{{c1::a}} {{c3::b}}", "more"]]],
        [rawCard(100, 10, 0), rawCard(101, 10, 2), rawCard(102, 10, 1)],
      ),
    );
    expect(notes[0]).toMatchObject({ kind: "cloze", fields: { text: "{{c1::a}} {{c3::b}}", extra: "more" } });
    expect(notes[0]?.cards.map((c) => c.ordinal)).toEqual([1, 3]);
    expect(skipped).toEqual({ "card-without-cloze": 1 });
  });

  it("keeps a custom type: one custom note with every field by name and each card's template as its ordinal", () => {
    const type = noteType(
      3,
      "Vocabulary",
      ["Word", "Meaning", "Example"],
      [
        ["<b>{{Word}}</b>", "{{FrontSide}}\n<hr id=answer>\n{{Meaning}}{{#Example}}<br>{{Example}}{{/Example}}"],
        ["{{Meaning}}", "{{FrontSide}}<hr id=answer>{{Word}}"],
      ],
    );
    const { notes, skipped } = map(
      collection([type], [[10, 3, ["casa [sound:casa.mp3]", "house", ""]]], [rawCard(100, 10, 0), rawCard(101, 10, 1)]),
    );
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatchObject({
      kind: "custom",
      ankiNoteTypeId: 3,
      ankiNoteTypeName: "Vocabulary",
      fields: { Word: 'casa <audio controls src="casa.mp3"></audio>', Meaning: "house", Example: "" },
    });
    expect(notes[0]?.cards.map((c) => [c.ankiCardId, c.ordinal])).toEqual([
      [100, 1],
      [101, 2],
    ]);
    expect(skipped).toEqual({});
  });

  it("keeps a custom note whose template shows nothing, and drops a card of a template the type lacks", () => {
    const type = noteType(4, "verb-forms", ["Root", "Passive", "Other"], [["", "{{FrontSide}}<hr id=answer>"]]);
    const { notes, skipped } = map(
      collection([type], [[10, 4, ["vand", "vandyate", "x"]]], [rawCard(100, 10, 0), rawCard(101, 10, 3)]),
    );
    expect(notes[0]?.fields).toEqual({ Root: "vand", Passive: "vandyate", Other: "x" });
    expect(notes[0]?.cards.map((c) => c.ordinal)).toEqual([1]);
    expect(skipped).toEqual({ "empty-front": 1 });
  });

  it("leaves out a card whose front Engram would not show, as Anki's card generation would", () => {
    const type = noteType(
      7,
      "Optional",
      ["A", "B"],
      [
        ["{{A}}", ""],
        ["{{#B}}{{A}}{{/B}}", ""],
      ],
    );
    const { notes, skipped } = map(
      collection([type], [[10, 7, ["x", ""]]], [rawCard(100, 10, 0), rawCard(101, 10, 1)]),
    );
    expect(notes[0]?.cards.map((c) => c.ordinal)).toEqual([1]);
    expect(notes[0]).toMatchObject({ kind: "custom", noteType: { name: "Optional", fields: ["A", "B"] } });
    expect(skipped).toEqual({ "empty-front": 1 });
  });

  it("keeps a cloze type with more fields than text and extra as a custom cloze type", () => {
    const type = noteType(6, "Cloze+", ["Text", "Extra", "Source"], [["{{cloze:Text}}", "{{cloze:Text}}"]], "cloze");
    const { notes } = map(
      collection([type], [[10, 6, ["{{c1::a}} {{c2::b}}", "", "book"]]], [rawCard(100, 10, 0), rawCard(101, 10, 1)]),
    );
    expect(notes[0]).toMatchObject({ kind: "custom", fields: { Text: "{{c1::a}} {{c2::b}}", Source: "book" } });
    expect(notes[0]?.cards.map((c) => c.ordinal)).toEqual([1, 2]);
  });

  it("maps image occlusion notes to image_occlusion, and skips notes without cards, counting them", () => {
    const occlusion = noteType(
      5,
      "Image Occlusion",
      ["Occlusion", "Image", "Header", "Back Extra", "Comments"],
      [["", ""]],
      "cloze",
    );
    const { notes, skipped } = map(
      collection(
        [occlusion, noteType(1, "Basic", ["Front", "Back"])],
        [
          [10, 5, ["{{c1::image-occlusion:rect}}", "<img>", "", "", ""]],
          [11, 1, ["Q", "A"]],
        ],
        [rawCard(100, 10, 0)],
      ),
    );
    expect(notes.map((n) => [n.kind, n.cards.map((c) => c.ordinal)])).toEqual([["image_occlusion", [1]]]);
    expect(skipped).toEqual({ "note-without-cards": 1 });
  });
});
