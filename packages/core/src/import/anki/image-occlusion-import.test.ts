import { describe, expect, it } from "vitest";
import { type ExportDeck, writeApkg } from "../../export/apkg";
import { parseOcclusions } from "../../image-occlusion";
import { readAnkiPackage } from "./read-package";

// Anki's image occlusion notes come in as image_occlusion notes, their
// occlusion field verbatim, and go back out as Anki's own Image Occlusion type.

const png = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const occlusions =
  "{{c1::image-occlusion:rect:left=.1:top=.2:width=.3:height=.1:oi=1}}<br>" +
  "{{c2::image-occlusion:ellipse:left=.5:top=.5:rx=.1:ry=.05:oi=1}}<br>" +
  "{{c2::image-occlusion:polygon:left=.6:top=.1:points=.6,.1 .8,.1 .7,.3:oi=1}}<br>";

const deck: ExportDeck = {
  name: "Anatomy",
  notes: [
    {
      id: "0b8f5a4e-2222-4c3b-9f00-000000000001",
      kind: "image_occlusion",
      fields: {
        image: '<img src="heart.png">',
        occlusions,
        header: "The heart",
        back_extra: "Left ventricle",
        comments: "from the atlas",
      },
      tags: ["anatomy"],
      cards: [
        { id: "card-1", ordinal: 1 },
        { id: "card-2", ordinal: 2, suspended: true },
      ],
    },
  ],
  media: [{ name: "heart.png", data: png }],
};

describe("Anki image occlusion notes", () => {
  it("go to Anki as its Image Occlusion type and come back as they were, one card per group", async () => {
    const bytes = await writeApkg(deck, { now: new Date("2026-03-10T12:00:00Z") });
    const pkg = await readAnkiPackage(bytes);
    expect(pkg.noteTypes.map((type) => [type.name, type.kind, type.fields])).toEqual([
      ["Image Occlusion", "cloze", ["Occlusion", "Image", "Header", "Back Extra", "Comments"]],
    ]);
    const [note] = pkg.notes;
    expect(note?.rawFields.Occlusion).toBe(occlusions);
    expect(note?.kind).toBe("image_occlusion");
    expect(note?.fields).toEqual(deck.notes[0]?.fields);
    expect(note?.cards.map((card) => [card.ordinal, card.suspended])).toEqual([
      [1, false],
      [2, true],
    ]);
    expect(parseOcclusions(note?.kind === "image_occlusion" ? note.fields.occlusions : "")).toHaveLength(3);
  });

  it("keep only the cards whose group is in the occlusion field", async () => {
    const stray: ExportDeck = {
      ...deck,
      notes: deck.notes.map((note) => ({ ...note, cards: [...note.cards, { id: "card-9", ordinal: 9 }] })),
    };
    const pkg = await readAnkiPackage(await writeApkg(stray));
    expect(pkg.notes[0]?.cards.map((card) => card.ordinal)).toEqual([1, 2]);
    expect(pkg.skipped).toEqual([{ reason: "card-without-cloze", count: 1 }]);
  });
});
