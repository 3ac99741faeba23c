/**
 * Renaming and removing fields in a note type's templates, as Anki does when
 * its Fields dialog saves (rslib/src/template.rs `rename_and_remove_fields`):
 * every tag naming a renamed field names its new name (`{{F}}`, `{{#F}}`,
 * `{{^F}}`, `{{/F}}`, `{{cloze:F}}`, `{{type:F}}` …); a removed field's
 * replacements go, and its sections open up, keeping what they held. Unlike
 * Anki, which writes the template out anew, everything else stays exactly as
 * written, and tags inside `<!-- -->` are left alone as they do nothing.
 */
import { tokenize } from "./parse";

/** Old field name → its new name, or null for a field removed. All apply at once, so two fields may swap names. */
export type FieldRenames = ReadonlyMap<string, string | null>;

export function renameFieldsInTemplate(template: string, renames: FieldRenames): string {
  if (renames.size === 0) return template;
  let out = "";
  let at = 0;
  for (;;) {
    const tag = delimited(template, at, "{{", "}}");
    const comment = delimited(template, at, "<!--", "-->");
    const next = tag && (!comment || tag.start <= comment.start) ? tag : comment;
    if (!next) break;
    out += template.slice(at, next.start);
    const raw = template.slice(next.start, next.end);
    out += next === tag ? renamedTag(raw, renames) : raw;
    at = next.end;
  }
  return out + template.slice(at);
}

/** The same renames applied to both sides of every template. */
export function renameFieldInTemplates<T extends { front: string; back: string }>(
  templates: readonly T[],
  renames: FieldRenames,
): T[] {
  return templates.map((template) => ({
    ...template,
    front: renameFieldsInTemplate(template.front, renames),
    back: renameFieldsInTemplate(template.back, renames),
  }));
}

/** One `{{…}}` tag with its field renamed, or "" when its field is removed; any other tag unchanged. */
function renamedTag(raw: string, renames: FieldRenames): string {
  const [token] = tokenize(raw);
  let key: string;
  if (token?.type === "replacement") key = token.text.split(":").pop() ?? "";
  else if (token?.type === "open" || token?.type === "close") key = token.key;
  else return raw;
  if (key === "" || !renames.has(key)) return raw;
  const renamed = renames.get(key);
  if (renamed === null || renamed === undefined) return "";
  // The key ends the tag's trimmed text, so its last occurrence is the one to replace.
  const inner = raw.slice(2, -2);
  const place = inner.lastIndexOf(key);
  return `{{${inner.slice(0, place)}${renamed}${inner.slice(place + key.length)}}}`;
}

/** As the parser finds them: the first `open … close` at or after `from`, or null. */
function delimited(text: string, from: number, open: string, close: string): { start: number; end: number } | null {
  const start = text.indexOf(open, from);
  if (start < 0) return null;
  const closeAt = text.indexOf(close, start + open.length);
  return closeAt < 0 ? null : { start, end: closeAt + close.length };
}
