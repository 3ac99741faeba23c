/**
 * The deck the search and browser benches search: `count` basic notes written
 * through REST in batches of 500, one in a hundred about mitochondria, a
 * quarter tagged spanish::verbs, the rest biology.
 */
import type { Queryable } from "@engram/local-stack";
import type { SupabaseClient } from "@supabase/supabase-js";

const words = ["cell", "membrane", "protein", "enzyme", "nucleus", "osmosis", "ribosome", "gene", "water", "energy"];

export async function writeSearchNotes(admin: SupabaseClient, deckId: string, userId: string, count: number) {
  for (let at = 0; at < count; at += 500) {
    const rows = Array.from({ length: Math.min(500, count - at) }, (_, offset) => {
      const i = at + offset;
      const topic = i % 100 === 0 ? "Mitochondria, the powerhouse of the cell" : words[i % words.length];
      return {
        deck_id: deckId,
        kind: "basic" as const,
        fields: {
          front: `<b>Word${i}</b> ${topic}`,
          back: `A ${words[(i * 7) % words.length]} and a ${words[(i * 3) % words.length]}, note ${i}.`,
        },
        tags: i % 4 === 0 ? ["spanish::verbs"] : ["biology"],
        created_by: userId,
      };
    });
    const inserted = await admin.from("notes").insert(rows);
    if (inserted.error) throw inserted.error;
  }
}

/**
 * A user's 10,000 notes arrive by import, which analyses the tables it grew.
 * Written through REST, they are analysed when autovacuum (on PGlite, the
 * stack in its place) next looks. This waits until none of the deck's tables
 * is due for that (more than 50 rows + 10 % changed), so searches are timed
 * on a database that knows its data.
 */
export async function tablesAnalysed(db: Queryable, tables = ["notes", "cards", "card_states"]) {
  for (;;) {
    const due = await db.query(
      `select 1 from pg_stat_user_tables s join pg_class c on c.oid = s.relid
        where s.schemaname = 'public' and s.relname = any($1)
          and s.n_mod_since_analyze > 50 + 0.1 * greatest(c.reltuples, 0)`,
      [tables],
    );
    if (due.length === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}
