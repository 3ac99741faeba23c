/**
 * Anki's stock note types as rslib/src/notetype/stock.rs (and image_occlusion/notetype.rs)
 * makes them in English: names, fields, templates, CSS and OriginalStockKind.
 */
import { builtInNoteTypes } from "../note-types";
import type { NoteType } from "../notes";
import type { AnkiNoteTypeSpec } from "./anki-package";

type Stock = Omit<AnkiNoteTypeSpec, "id">;

function stock(type: NoteType, originalStockKind: number, extra: Partial<Stock> = {}): Stock {
  return {
    name: type.name,
    kind: type.kind,
    fields: [...type.fields],
    templates: type.templates.map((template) => ({ ...template })),
    css: type.css,
    originalStockKind,
    ...extra,
  };
}

/** Engram's built-in kinds as Anki's stock note types, with Anki's OriginalStockKind. */
export const ankiStock = {
  basic: stock(builtInNoteTypes.basic, 1),
  basic_reversed: stock(builtInNoteTypes.basic_reversed, 2),
  type_in: stock(builtInNoteTypes.type_in, 4),
  cloze: stock(builtInNoteTypes.cloze, 5, {
    fieldTags: [
      { tag: 0, preventDeletion: true },
      { tag: 1, preventDeletion: false },
    ],
  }),
} satisfies Record<keyof typeof builtInNoteTypes, Stock>;

const ioFront = `{{#Header}}<div>{{Header}}</div>{{/Header}}
<div style="display: none">{{cloze:Occlusion}}</div>
<div id="err"></div>
<div id="image-occlusion-container">
    {{Image}}
    <canvas id="image-occlusion-canvas"></canvas>
</div>
<script>
try {
    anki.imageOcclusion.setup();
} catch (exc) {
    document.getElementById("err").innerHTML = \`Error loading image occlusion. Is your Anki version up to date?<br><br>\${exc}\`;
}
</script>
`;

/** Anki 23.10+'s Image Occlusion: a cloze type whose Occlusion field holds shapes as cloze deletions. */
export const ankiImageOcclusion: Stock = {
  name: "Image Occlusion",
  kind: "cloze",
  fields: ["Occlusion", "Image", "Header", "Back Extra", "Comments"],
  templates: [
    {
      name: "Image Occlusion",
      front: ioFront,
      back: `${ioFront}
<div><button id="toggle">Toggle Masks</button></div>
{{#Back Extra}}<div>{{Back Extra}}</div>{{/Back Extra}}
`,
    },
  ],
  css: `#image-occlusion-canvas {
    --inactive-shape-color: #ffeba2;
    --active-shape-color: #ff8e8e;
    --inactive-shape-border: 1px #212121;
    --active-shape-border: 1px #212121;
    --highlight-shape-color: #ff8e8e00;
    --highlight-shape-border: 1px #ff8e8e;
}

.card {
    font-family: arial;
    font-size: 20px;
    text-align: center;
    color: black;
    background-color: white;
}
`,
  originalStockKind: 6,
  fieldTags: [0, 1, 2, 3, 4].map((tag) => ({ tag, preventDeletion: tag !== 4 })),
};
