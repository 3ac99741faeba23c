/**
 * Prints the cards due today for one user, per deck: Engram's SDK used from a
 * plain Node program, as a CLI or a bot would use it.
 *
 *   SUPABASE_URL=… SUPABASE_ANON_KEY=… ENGRAM_EMAIL=… ENGRAM_PASSWORD=… pnpm start
 *
 * Without those variables it reads the local stack's `.engram/.env` and signs
 * in as the seeded demo user.
 */
import { existsSync } from "node:fs";
import { createEngram, type Database, EngramError } from "@engram/sdk";
import { createClient } from "@supabase/supabase-js";
import WebSocket from "ws";

const localEnv = new URL("../../../.engram/.env", import.meta.url);
if (!process.env.SUPABASE_ANON_KEY && existsSync(localEnv)) process.loadEnvFile(localEnv);

const url = process.env.SUPABASE_URL ?? "http://127.0.0.1:54321";
const anonKey = process.env.SUPABASE_ANON_KEY;
const email = process.env.ENGRAM_EMAIL ?? "demo@engram.local";
const password = process.env.ENGRAM_PASSWORD ?? "engram-demo";

async function main(): Promise<void> {
  if (!anonKey) throw new Error("Set SUPABASE_ANON_KEY, or start the local stack with `pnpm stack`.");
  // Node 20 has no global WebSocket; supabase-js needs one for realtime.
  const supabase = createClient<Database>(url, anonKey, {
    auth: { persistSession: false },
    realtime: { transport: WebSocket as never },
  });
  const engram = createEngram(supabase);
  await engram.auth.signIn({ email, password });

  const [decks, queue] = await Promise.all([engram.decks.list(), engram.study.queue()]);
  console.log(`${email}: ${queue.length} cards due today`);
  for (const deck of decks) {
    const cards = queue.filter((card) => card.deck_id === deck.id);
    if (cards.length === 0) continue;
    const count = (queueName: string) => cards.filter((card) => card.queue === queueName).length;
    console.log(
      `- ${deck.name}: ${cards.length} (${count("new")} new, ${count("learning")} learning, ${count("review")} review)`,
    );
  }
  await engram.auth.signOut();
}

main().catch((error: unknown) => {
  const message = error instanceof EngramError ? `${error.code}: ${error.message}` : String(error);
  console.error(message);
  process.exitCode = 1;
});
