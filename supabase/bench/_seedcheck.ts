import { openPglite, openPostgres, prepareDatabase, type Database } from "@engram/local-stack";
const supabaseDir = new URL("../", import.meta.url).pathname;
const q = `select d.name, d.is_public, n.kind, count(distinct n.id)::int as notes, count(c.id)::int as cards,
  (select count(*)::int from card_states s where s.deck_id = d.id and s.user_id = d.owner_id) as states
  from decks d join notes n on n.deck_id = d.id join cards c on c.note_id = n.id group by d.id, n.kind order by 1, 3`;
async function check(db: Database) {
  const r = await prepareDatabase(db, { supabaseDir, seed: true });
  console.log(db.kind, r.seeded, r.migrations.length);
  console.table(await db.query(q));
  console.table(await db.query(`select p.*, u.email, u.encrypted_password = extensions.crypt('engram-demo', u.encrypted_password) as pw_ok, u.confirmed_at is not null as confirmed from profiles p join auth.users u on u.id = p.id`));
  console.table(await db.query(`select provider, provider_id, identity_data, email from auth.identities`));
  console.table(await db.query(`select * from deck_members`));
  // re-run the seed: nothing must change
  await db.transaction((tx) => tx.exec(require_seed));
  console.table(await db.query(`select count(*)::int notes, (select count(*)::int from cards) cards, (select count(*)::int from card_states) states from notes`));
}
import { readFileSync } from "node:fs";
const require_seed = readFileSync(supabaseDir + "seed.sql", "utf8");
const pgl = await openPglite();
await check(pgl);
await pgl.close();
const name = `bench_scratch_${process.pid}`;
const admin = openPostgres({ connectionString: "postgres://postgres@127.0.0.1:55432/postgres", max: 1 });
await admin.exec(`create database ${name}`);
try {
  const db = openPostgres({ connectionString: `postgres://postgres@127.0.0.1:55432/${name}`, max: 1 });
  await check(db);
  await db.close();
} finally {
  await admin.exec(`drop database ${name}`);
  await admin.close();
}
