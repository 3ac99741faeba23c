/** Which fields count as filled, by Anki's rules (rslib/src/template.rs, notetype/cardgen.rs). */

/** Names Anki fills itself; a note type may still have a field of the same name, which then wins. */
export const specialFields = ["FrontSide", "Card", "CardFlag", "Deck", "Subdeck", "Tags", "Type", "CardID"] as const;

/** Anki's `field_is_empty`: only ASCII white space, `<br>` and `<div>` tags. `&nbsp;` is content. */
export function fieldIsEmpty(value: string): boolean {
  return /^(?:[\t\n\v\f\r ]|<\/?(?:br|div) ?\/?>)*$/i.test(value);
}

/**
 * The names a card's front may show: the note's non-empty fields, and the
 * special fields the note type does not override (FrontSide never; Tags only
 * when the note has tags), as Anki's card generation counts them.
 */
export function nonEmptyNames(
  fieldNames: readonly string[],
  values: Readonly<Record<string, string>>,
  tags: readonly string[],
): Set<string> {
  const names = new Set(fieldNames.filter((name) => !fieldIsEmpty(values[name] ?? "")));
  for (const special of specialFields) {
    if (fieldNames.includes(special) || special === "FrontSide") continue;
    if (special === "Tags" && tags.length === 0) continue;
    names.add(special);
  }
  return names;
}
