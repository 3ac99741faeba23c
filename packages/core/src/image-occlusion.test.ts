import { JSDOM } from "jsdom";
import { describe, expect, test } from "vitest";
import { canonicalHtml } from "./html-test-support";
import {
  type ImageOcclusionFields,
  type OcclusionShape,
  occlusionMasks,
  occlusionNumber,
  occlusionOrdinals,
  parseOcclusions,
  serializeOcclusions,
  validateImageOcclusion,
} from "./image-occlusion";
import { noteInputSchema } from "./note-validation";
import { cardOrdinals } from "./notes";
import { renderCard } from "./render";
import { createDomSanitizers, type SanitizerWindow } from "./sanitize-dom";

// As Anki 23.10's editor writes them (shapes/to-cloze.ts), hide-all-guess-one.
const ankiField =
  "{{c1::image-occlusion:rect:left=.2325:top=.3261:width=.202:height=.0975:oi=1}}<br>" +
  "{{c2::image-occlusion:ellipse:left=.4:top=.1:rx=.05:ry=.08:oi=1}}<br>" +
  "{{c2::image-occlusion:polygon:left=.1:top=.6:points=.1,.6 .3,.6 .2,.9:oi=1}}<br>" +
  "{{c0::image-occlusion:text:left=.5:top=.5:text=\\\\foo\\:bar\\::scale=1.:fs=.05:oi=1}}<br>";

const fields = (occlusions: string, extra: Partial<ImageOcclusionFields> = {}): ImageOcclusionFields => ({
  image: '<img src="heart.png">',
  occlusions,
  header: "",
  back_extra: "",
  comments: "",
  ...extra,
});

describe("parseOcclusions", () => {
  test("reads Anki's shapes with their numbers, properties and oi", () => {
    const shapes = parseOcclusions(ankiField);
    expect(shapes).toEqual([
      {
        ordinal: 1,
        occludeInactive: true,
        angle: 0,
        shape: "rect",
        left: 0.2325,
        top: 0.3261,
        width: 0.202,
        height: 0.0975,
      },
      { ordinal: 2, occludeInactive: true, angle: 0, shape: "ellipse", left: 0.4, top: 0.1, rx: 0.05, ry: 0.08 },
      {
        ordinal: 2,
        occludeInactive: true,
        angle: 0,
        shape: "polygon",
        left: 0.1,
        top: 0.6,
        points: [
          { x: 0.1, y: 0.6 },
          { x: 0.3, y: 0.6 },
          { x: 0.2, y: 0.9 },
        ],
      },
      // Anki's own escape test: `\\` and `\:` in a value (imageocclusion.rs).
      {
        ordinal: 0,
        occludeInactive: true,
        angle: 0,
        shape: "text",
        left: 0.5,
        top: 0.5,
        text: "\\foo:bar:",
        scale: 1,
        fontSize: 0.05,
      },
    ]);
  });

  test("hide one, guess one has no oi; angles are Anki's 1/10000 turns; fill is kept", () => {
    const [shape] = parseOcclusions(
      "{{c3::image-occlusion:rect:left=.1:top=.2:angle=2500:width=.3:height=.4:fill=#00ff00}}",
    );
    expect(shape).toMatchObject({ ordinal: 3, occludeInactive: false, angle: 90, fill: "#00ff00" });
  });

  test("unknown shapes, multi-number clozes and unclosed ones are not occlusions", () => {
    expect(
      parseOcclusions(
        "{{c1::image-occlusion:star:left=1}}{{c1,2::image-occlusion:rect:left=1}}{{c4::image-occlusion:rect:left=1",
      ),
    ).toEqual([]);
    expect(occlusionOrdinals("{{c1,2::image-occlusion:rect:left=1}} {{c5::plain}}")).toEqual([]);
  });
});

describe("occlusionOrdinals and cardOrdinals", () => {
  test("one card per group number, labels (0) make none", () => {
    expect(occlusionOrdinals(ankiField)).toEqual([1, 2]);
    expect(cardOrdinals({ kind: "image_occlusion", fields: fields(ankiField) })).toEqual([1, 2]);
    expect(occlusionOrdinals("{{c10::image-occlusion:rect:left=0}}{{c02::image-occlusion:rect:left=0}}")).toEqual([
      2, 10,
    ]);
    expect(occlusionOrdinals("{{c99999999999::image-occlusion:rect:left=0}}")).toEqual([]);
  });
});

describe("serializeOcclusions", () => {
  test("writes Anki's format exactly, so Anki's field reads back unchanged", () => {
    expect(serializeOcclusions(parseOcclusions(ankiField))).toBe(ankiField);
  });

  test("numbers as Anki's floatToDisplay writes them", () => {
    expect([0, 0.5, 0.12345, 1, 0.0001].map(occlusionNumber)).toEqual([".0000", ".5", ".1235", "1.", ".0001"]);
  });

  test("a round trip of shapes made in the editor keeps every property", () => {
    const text = serializeOcclusions([
      { ordinal: 1, occludeInactive: false, angle: 0, shape: "rect", left: 0.1, top: 0.2, width: 0.3, height: 0.25 },
      { ordinal: 2, occludeInactive: false, angle: 0, shape: "ellipse", left: 0.5, top: 0.5, rx: 0.1, ry: 0.2 },
    ]);
    expect(text).toBe(
      "{{c1::image-occlusion:rect:left=.1:top=.2:width=.3:height=.25}}<br>{{c2::image-occlusion:ellipse:left=.5:top=.5:rx=.1:ry=.2}}<br>",
    );
    expect(serializeOcclusions(parseOcclusions(text))).toBe(text);
  });
});

describe("polygons, labels and turned shapes as the editor makes them", () => {
  test("are written in Anki's order (left, top, angle, then the shape's own) and read back the same", () => {
    const shapes: OcclusionShape[] = [
      {
        ordinal: 1,
        occludeInactive: true,
        angle: 0,
        shape: "polygon",
        left: 0.1,
        top: 0.1,
        points: [
          { x: 0.1, y: 0.1 },
          { x: 0.4, y: 0.15 },
          { x: 0.2, y: 0.5 },
        ],
      },
      {
        ordinal: 0,
        occludeInactive: true,
        angle: 45,
        shape: "text",
        left: 0.6,
        top: 0.08,
        text: "Left: atrium",
        scale: 1.5,
        fontSize: 40 / 300,
      },
      { ordinal: 2, occludeInactive: true, angle: 30, shape: "rect", left: 0.5, top: 0.4, width: 0.3, height: 0.2 },
    ];
    const text = serializeOcclusions(shapes);
    expect(text).toBe(
      "{{c1::image-occlusion:polygon:left=.1:top=.1:points=.1,.1 .4,.15 .2,.5:oi=1}}<br>" +
        "{{c0::image-occlusion:text:left=.6:top=.08:angle=1250:text=Left\\: atrium:scale=1.5:fs=.1333:oi=1}}<br>" +
        "{{c2::image-occlusion:rect:left=.5:top=.4:angle=833:width=.3:height=.2:oi=1}}<br>",
    );
    const read = parseOcclusions(text);
    expect(read[1]).toMatchObject({ shape: "text", text: "Left: atrium", scale: 1.5, fontSize: 0.1333, angle: 45 });
    // 1/10000 turns: 30° is kept as 833, which reads as 29.988°.
    expect(read[2]?.angle).toBeCloseTo(29.988, 3);
    expect(serializeOcclusions(read)).toBe(text);
    expect(occlusionOrdinals(text)).toEqual([1, 2]);
  });
});

describe("validateImageOcclusion", () => {
  test("needs an image, a group and nothing but occlusions in the field", () => {
    expect(validateImageOcclusion(fields(ankiField))).toEqual([]);
    expect(validateImageOcclusion(fields("", { image: "no picture" }))).toEqual([
      { field: "image", problem: "missing" },
      { field: "occlusions", problem: "missing" },
    ]);
    expect(validateImageOcclusion(fields(`${ankiField} stray`))).toEqual([
      { field: "occlusions", problem: "text-outside-occlusions" },
    ]);
  });
});

describe("occlusionMasks", () => {
  const shapes = parseOcclusions(ankiField);
  test("hide all: the asked group active, the others inactive, labels always", () => {
    expect(occlusionMasks(shapes, 1, "front").map((m) => [m.ordinal, m.state])).toEqual([
      [1, "active"],
      [2, "inactive"],
      [2, "inactive"],
      [0, "label"],
    ]);
    expect(occlusionMasks(shapes, 2, "back").map((m) => [m.ordinal, m.state])).toEqual([
      [1, "inactive"],
      [2, "revealed"],
      [2, "revealed"],
      [0, "label"],
    ]);
  });
  test("hide one: other groups are not drawn", () => {
    const hideOne = parseOcclusions(ankiField.replaceAll(":oi=1", ""));
    expect(occlusionMasks(hideOne, 1, "front").map((m) => [m.ordinal, m.state])).toEqual([
      [1, "active"],
      [0, "label"],
    ]);
  });
});

describe("renderCard", () => {
  const note = {
    kind: "image_occlusion" as const,
    fields: fields(ankiField, { header: "Heart", back_extra: "Aorta" }),
  };

  test("faces hold the header, the image in its container with the masks, and the back extra", () => {
    const { front, back } = renderCard(note, 1);
    expect(front).toMatch(
      /^<div>Heart<\/div>\n<engram-occlusion data-ordinal="1" data-side="front" data-masks="[^"]+"><img alt="The image with masked areas" src="heart.png" \/?><\/engram-occlusion>$/,
    );
    expect(back).toContain('data-side="back"');
    expect(back).toContain("<div>Aorta</div>");
    expect(front).not.toContain("Aorta");
    const masks = JSON.parse(
      new JSDOM(front).window.document.querySelector("engram-occlusion")?.getAttribute("data-masks") ?? "",
    );
    expect(masks.map((m: { state: string }) => m.state)).toEqual(["active", "inactive", "inactive", "label"]);
    expect(masks[3].text).toBe("\\foo:bar:");
  });

  test("the browser's sanitiser keeps the container exactly as the node one does", () => {
    const dom = createDomSanitizers(new JSDOM("").window as unknown as SanitizerWindow);
    const label = fields(
      "{{c1::image-occlusion:rect:left=0:top=0:width=.1:height=.1}}{{c0::image-occlusion:text:left=0:top=0:text=<b>&'\"}}",
    );
    const { front } = renderCard({ kind: "image_occlusion", fields: label }, 1);
    expect(canonicalHtml(dom.sanitizeCardHtml(front))).toBe(canonicalHtml(front));
    const masks = JSON.parse(
      new JSDOM(front).window.document.querySelector("engram-occlusion")?.getAttribute("data-masks") ?? "",
    );
    expect(masks[1].text).toBe("<b>&'\"");
  });

  test("a number without a group has no card", () => {
    expect(() => renderCard(note, 3)).toThrow(RangeError);
  });
});

describe("noteInputSchema", () => {
  test("takes an image occlusion note and says what is missing", () => {
    const good = noteInputSchema.safeParse({
      kind: "image_occlusion",
      fields: { image: '<img src="a.png">', occlusions: ankiField },
    });
    expect(good.success && good.data.fields).toMatchObject({ header: "", back_extra: "", comments: "" });
    const bad = noteInputSchema.safeParse({ kind: "image_occlusion", fields: { image: "", occlusions: "" } });
    expect(bad.error?.issues.map((issue) => issue.message)).toEqual([
      "Choose an image to occlude.",
      "Draw at least one mask over the image.",
    ]);
  });
});
