/**
 * The RETURNING of a write, as PostgREST 12 builds it (Plan.hs
 * `inferColsEmbedNeeds`, SqlFragment.hs `returningF`): `1` when no
 * representation is asked for, else the selected columns, the columns its
 * embeds join on and the primary key. So a column the role may not read fails
 * a write only when the request asks for it.
 */
import type { Preferences } from "./preferences.js";
import type { ReadNode } from "./read-plan.js";
import { quoteIdent } from "./sql.js";

/** The returned columns, `*` for every column, or null for none (`RETURNING 1`). */
export function returnedColumns(root: ReadNode, prefs: Preferences): string[] | "*" | null {
  if (prefs.return !== "representation" && prefs.return !== "headers-only") return null;
  const { relation } = root;
  const names = new Set<string>();
  for (const item of root.items) {
    if (item.type === "star") return "*";
    if (item.type !== "column") continue;
    const { column } = item.field;
    // `count()` reads rows, and a computed field takes the whole row, as PostgREST's `*`.
    if (column === "*" || relation.computed?.[column]) return "*";
    // Anything else (a legacy `count`, an unknown name) is refused by the read that follows.
    if (relation.columns.some((c) => c.name === column)) names.add(column);
  }
  for (const embed of root.embeds.values()) {
    // A computed relationship takes the whole row too.
    if (embed.rel.computed) return "*";
    for (const pair of embed.rel.pairs) names.add(pair.origin);
    for (const pair of embed.rel.junction?.origin ?? []) names.add(pair.origin);
  }
  for (const key of relation.primaryKey) names.add(key);
  return [...names];
}

/** ` returning …`; `alias` qualifies the columns where the statement reads another relation too. */
export function returningSql(columns: string[] | "*" | null, alias: string | null): string {
  const prefix = alias === null ? "" : `${quoteIdent(alias)}.`;
  if (columns === null || columns.length === 0) return " returning 1";
  if (columns === "*") return ` returning ${prefix}*`;
  return ` returning ${columns.map((c) => `${prefix}${quoteIdent(c)}`).join(", ")}`;
}
