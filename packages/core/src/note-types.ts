/**
 * Note types (docs/product.md §3): Anki's stock types and the rules a note
 * type must follow, as Anki's own checks (rslib/src/notetype) and the database's
 * `public.note_types` constraints enforce them.
 */
import { z } from "zod/mini";
import type { NoteType } from "./notes";
import { clozeFieldNames, parseTemplate, referencedFieldNames, specialFields } from "./templates";
import { charLength } from "./validation";

export const noteTypeLimits = {
  name: 100,
  fields: 100,
  templates: 100,
  templateLength: 100_000,
  cssLength: 100_000,
} as const;

/** Anki's stock styling.css and cloze_styling.css. */
const stockCss =
  ".card {\n    font-family: arial;\n    font-size: 20px;\n    line-height: 1.5;\n    text-align: center;\n    color: black;\n    background-color: white;\n}\n";
const stockClozeCss =
  ".cloze {\n    font-weight: bold;\n    color: blue;\n}\n.nightMode .cloze {\n    color: lightblue;\n}\n";

const answerAfter = (front: string, back: string) => `${front}\n\n<hr id=answer>\n\n${back}`;

/** Anki's stock note types (rslib/src/notetype/stock.rs), for export and preview of the built-in kinds. */
export const builtInNoteTypes = {
  basic: {
    name: "Basic",
    kind: "standard",
    fields: ["Front", "Back"],
    templates: [{ name: "Card 1", front: "{{Front}}", back: answerAfter("{{FrontSide}}", "{{Back}}") }],
    css: stockCss,
  },
  basic_reversed: {
    name: "Basic (and reversed card)",
    kind: "standard",
    fields: ["Front", "Back"],
    templates: [
      { name: "Card 1", front: "{{Front}}", back: answerAfter("{{FrontSide}}", "{{Back}}") },
      { name: "Card 2", front: "{{Back}}", back: answerAfter("{{FrontSide}}", "{{Front}}") },
    ],
    css: stockCss,
  },
  type_in: {
    name: "Basic (type in the answer)",
    kind: "standard",
    fields: ["Front", "Back"],
    templates: [
      { name: "Card 1", front: "{{Front}}\n\n{{type:Back}}", back: answerAfter("{{Front}}", "{{type:Back}}") },
    ],
    css: stockCss,
  },
  cloze: {
    name: "Cloze",
    kind: "cloze",
    fields: ["Text", "Back Extra"],
    templates: [{ name: "Cloze", front: "{{cloze:Text}}", back: "{{cloze:Text}}<br>\n{{Back Extra}}" }],
    css: stockCss + stockClozeCss,
  },
} as const satisfies Record<"basic" | "basic_reversed" | "cloze" | "type_in", NoteType>;

const lowerKey = (name: string) => name.toLocaleLowerCase("en-US");

function uniqueIgnoringCase(names: readonly string[]): boolean {
  return new Set(names.map(lowerKey)).size === names.length;
}

const typeNameSchema = z.string({ error: "The note type name must be text." }).check(
  z.refine((name) => name.trim() !== "", "Give the note type a name."),
  z.refine(
    (name) => charLength(name) <= noteTypeLimits.name,
    `Names can be at most ${noteTypeLimits.name} characters.`,
  ),
  z.refine((name) => !name.includes('"'), 'Names cannot contain ".'),
);

/** Anki's field name rule (NoteField::fix_name), refused rather than silently fixed. */
export const fieldNameSchema = z.string({ error: "A field name must be text." }).check(
  z.minLength(1, "Give every field a name."),
  z.refine(
    (name) => charLength(name) <= noteTypeLimits.name,
    `Names can be at most ${noteTypeLimits.name} characters.`,
  ),
  z.refine((name) => !/[:{}"]/.test(name), 'Field names cannot contain :, {, } or ".'),
  z.refine((name) => !/^[#/^]/.test(name), "Field names cannot start with #, / or ^."),
  z.refine((name) => name.trim() === name, "Field names cannot start or end with a space."),
);

const templateTextSchema = z
  .string({ error: "A template must be text." })
  .check(
    z.refine(
      (text) => charLength(text) <= noteTypeLimits.templateLength,
      `Templates can be at most ${noteTypeLimits.templateLength} characters.`,
    ),
  );

const cardTemplateSchema = z.object({
  name: typeNameSchema,
  front: templateTextSchema,
  back: templateTextSchema,
});

const knownNames = new Set<string>(specialFields);

export const noteTypeSchema = z
  .object({
    name: typeNameSchema,
    kind: z.enum(["standard", "cloze"], { error: "Choose standard or cloze." }),
    fields: z
      .array(fieldNameSchema)
      .check(
        z.minLength(1, "A note type needs at least one field."),
        z.maxLength(noteTypeLimits.fields, `A note type can have at most ${noteTypeLimits.fields} fields.`),
        z.refine(uniqueIgnoringCase, "Field names must differ (ignoring case)."),
      ),
    templates: z.array(cardTemplateSchema).check(
      z.minLength(1, "A note type needs at least one card template."),
      z.maxLength(noteTypeLimits.templates, `A note type can have at most ${noteTypeLimits.templates} card templates.`),
      z.refine(
        (templates) => uniqueIgnoringCase(templates.map((t) => t.name)),
        "Card template names must differ (ignoring case).",
      ),
    ),
    css: z
      .string({ error: "The styling must be text." })
      .check(
        z.refine(
          (css) => charLength(css) <= noteTypeLimits.cssLength,
          `Styling can be at most ${noteTypeLimits.cssLength} characters.`,
        ),
      ),
  })
  .check(
    z.superRefine((type, ctx) => {
      if (type.kind === "cloze" && type.templates.length !== 1) {
        ctx.addIssue({
          code: "custom",
          path: ["templates"],
          message: "A cloze note type has exactly one card template.",
        });
      }
      const fields = new Set(type.fields);
      type.templates.forEach((template, index) => {
        for (const side of ["front", "back"] as const) {
          const problem = templateProblem(template[side], side, type.kind, fields);
          if (problem) ctx.addIssue({ code: "custom", path: ["templates", index, side], message: problem });
        }
      });
    }),
  );

/** What is wrong with one side of a template, in Anki's order of checks, or null. */
function templateProblem(
  text: string,
  side: "front" | "back",
  kind: NoteType["kind"],
  fields: ReadonlySet<string>,
): string | null {
  const parsed = parseTemplate(text);
  if (parsed.error) {
    const tag = `{{/${parsed.error.key}}}`;
    return parsed.error.code === "section-not-closed"
      ? `Close the section with ${tag}.`
      : `${tag} closes a section that is not open.`;
  }
  const names = referencedFieldNames(parsed.nodes, true);
  if (side === "front" && names.size === 0) return "The front must show at least one field.";
  for (const name of names) {
    if (name !== "" && !fields.has(name) && !knownNames.has(name)) return `There is no field called ${name}.`;
  }
  if (kind === "cloze" && clozeFieldNames(parsed.nodes).size === 0) {
    return "A cloze template shows a field with the cloze filter, like {{cloze:Text}}.";
  }
  return null;
}

export type NoteTypeIssue = { path: (string | number)[]; message: string };

/** A note type checked against Anki's rules: the type itself, or every issue with where it is. */
export function validateNoteType(
  input: unknown,
): { ok: true; noteType: NoteType } | { ok: false; issues: NoteTypeIssue[] } {
  const result = noteTypeSchema.safeParse(input);
  if (result.success) return { ok: true, noteType: result.data };
  return {
    ok: false,
    issues: result.error.issues.map((issue) => ({
      path: issue.path.filter((part) => typeof part !== "symbol") as (string | number)[],
      message: issue.message,
    })),
  };
}

/** The fields of a custom note: exactly the type's field names, each text within the field length limit. */
export function customFieldsSchema(type: Pick<NoteType, "fields">, maxLength: number) {
  const shape = Object.fromEntries(
    type.fields.map((name) => [
      name,
      z
        .string({ error: `${name} must be text.` })
        .check(z.refine((value) => charLength(value) <= maxLength, `${name} can be at most ${maxLength} characters.`)),
    ]),
  );
  return z.strictObject(shape, { error: "Fill in exactly the note type's fields." });
}
