/** Delimited text as staged notes through a column mapping; a row's first column keys it, as Anki matches duplicates. */
import { type ColumnMapping, mapColumns, type ParsedDelimited } from "@engram/core/import";
import { EngramError } from "../errors.js";
import { stableUuid } from "./ids.js";
import type { SkipTally, StagedNote } from "./staged.js";

function checkMapping(parsed: ParsedDelimited, mapping: ColumnMapping): void {
  const width = parsed.header?.length ?? parsed.rows[0]?.length ?? 0;
  for (const [role, column] of Object.entries(mapping)) {
    if (typeof column === "number" && (column < 0 || column >= width || !Number.isInteger(column))) {
      throw new EngramError("validation", `The ${role} column does not exist in this file.`, { field: role });
    }
  }
  if (mapping.front === undefined && mapping.text === undefined) {
    throw new EngramError("validation", "Choose the column that holds the front (or cloze text).", {
      field: "front",
    });
  }
}

export async function stageCsvNotes(
  parsed: ParsedDelimited,
  mapping: ColumnMapping,
  skipped: SkipTally,
): Promise<StagedNote[]> {
  checkMapping(parsed, mapping);
  const { notes, issues } = mapColumns(parsed, mapping);
  for (const issue of issues) skipped.add(`invalid-row: ${issue.message}`);
  return Promise.all(
    notes.map(async (note) => {
      const first =
        note.kind === "cloze"
          ? note.fields.text
          : note.kind === "image_occlusion"
            ? note.fields.occlusions
            : note.fields.front;
      return {
        guid: `csv ${await stableUuid(first)}`,
        kind: note.kind,
        fields: note.fields,
        tags: note.tags,
        cards: [],
      };
    }),
  );
}
