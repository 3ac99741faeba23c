/** A note's fields in their order, named as the editor names them (custom notes by their own names). */
const builtIn: Record<string, [string, string][]> = {
  basic: [
    ["front", "Front"],
    ["back", "Back"],
  ],
  basic_reversed: [
    ["front", "Front"],
    ["back", "Back"],
  ],
  type_in: [
    ["front", "Front"],
    ["back", "Back"],
  ],
  cloze: [
    ["text", "Text"],
    ["extra", "Extra"],
  ],
  image_occlusion: [
    ["header", "Header"],
    ["image", "Image"],
    ["occlusions", "Occlusions"],
    ["back_extra", "Back extra"],
    ["comments", "Comments"],
  ],
};

/** [name, label] of each field a note of `kind` with these fields shows. */
export function fieldNames(kind: string, fields: Record<string, unknown> | null | undefined): [string, string][] {
  const known = builtIn[kind];
  if (known) return known;
  return Object.keys(fields ?? {}).map((name) => [name, name]);
}

/** The kinds a suggested new note may be, with their labels (the text-only built-in kinds). */
export const suggestableKinds = [
  ["basic", "Basic"],
  ["basic_reversed", "Basic and reversed"],
  ["type_in", "Basic (type in the answer)"],
  ["cloze", "Cloze"],
] as const;
export type SuggestableKind = (typeof suggestableKinds)[number][0];
