/**
 * A note's fields and tags as docs/product.md §5 limits them, as zod schemas
 * beside the deck and account rules of validation.ts (same conventions: code
 * points, ECMAScript whitespace); `validationCases` keeps them equal to the database's.
 */
import { z } from "zod/mini";
import { clozeNesting, clozeOrdinals } from "./cloze";
import { imageOcclusionFieldsSchema } from "./image-occlusion-schema";
import { limits } from "./limits";
import { noteKinds } from "./notes";
import { hasContent } from "./sanitize";
import { atMost, limitedText } from "./validation";

const whitespace = /\s/u;

/** Same as `^\S{1,64}$` (with code points), split up for clearer messages. */
export const tagSchema = z.string({ error: "Tags must be text." }).check(
  z.minLength(1, "Tags cannot be empty."),
  z.refine((tag) => !whitespace.test(tag), "Tags cannot contain spaces; use _ or - instead."),
  z.refine(atMost(limits.tagLength), `Tags can be at most ${limits.tagLength} characters.`),
);

/** Duplicates compare exactly: "Verb" and "verb" are two tags. */
export const tagsSchema = z.array(tagSchema).check(
  z.maxLength(limits.tagsPerNote, `A note can have at most ${limits.tagsPerNote} tags.`),
  z.refine((tags) => new Set(tags).size === tags.length, "Each tag can appear only once."),
);

function fieldSchema(label: string) {
  return limitedText(limits.fieldLength, `The ${label} can be at most ${limits.fieldLength} characters.`).check(
    z.refine(hasContent, `The ${label} cannot be empty.`),
  );
}

/** The back may be empty, as Anki allows: a basic_reversed note then has only its first card. */
export const basicFieldsSchema = z.object({
  front: fieldSchema("front"),
  back: limitedText(limits.fieldLength, `The back can be at most ${limits.fieldLength} characters.`),
});

export const clozeFieldsSchema = z.object({
  text: limitedText(limits.fieldLength, `The text can be at most ${limits.fieldLength} characters.`).check(
    z.refine((text) => clozeOrdinals(text).length > 0, "Add at least one cloze deletion, like {{c1::answer}}."),
    z.refine(
      (text) => clozeOrdinals(text).length <= limits.clozeNumbersPerNote,
      `A note can have at most ${limits.clozeNumbersPerNote} cloze numbers; split it into several notes.`,
    ),
    z.refine(
      (text) => clozeNesting(text) <= limits.clozeNestingDepth,
      `Cloze deletions can be nested at most ${limits.clozeNestingDepth} deep.`,
    ),
  ),
  extra: z._default(
    limitedText(limits.fieldLength, `The extra field can be at most ${limits.fieldLength} characters.`),
    "",
  ),
});

const tagsField = z._default(tagsSchema, []);

export const noteInputSchema = z.discriminatedUnion(
  "kind",
  [
    z.object({ kind: z.literal("basic"), fields: basicFieldsSchema, tags: tagsField }),
    z.object({ kind: z.literal("basic_reversed"), fields: basicFieldsSchema, tags: tagsField }),
    z.object({ kind: z.literal("cloze"), fields: clozeFieldsSchema, tags: tagsField }),
    z.object({ kind: z.literal("type_in"), fields: basicFieldsSchema, tags: tagsField }),
    z.object({ kind: z.literal("image_occlusion"), fields: imageOcclusionFieldsSchema, tags: tagsField }),
  ],
  { error: `Choose a note type: ${noteKinds.join(", ")}.` },
);

export type NoteInput = z.infer<typeof noteInputSchema>;
