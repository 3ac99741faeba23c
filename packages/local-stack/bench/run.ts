/**
 * `pnpm bench` (local stack): requests per second and latency of the REST API
 * for four typical requests, against the same SQL run directly on the same
 * database, on PGlite and (with DATABASE_URL or BENCH_DATABASE_URL) on
 * PostgreSQL; storage throughput for a 5 MB file; function invocation
 * overhead; realtime delivery latency; and `pnpm stack`'s cold and warm start
 * times and resident memory, idle and after a burst of bad requests (startup.ts).
 *
 * REST columns: the server's rps and latency; cpu/req, this process's CPU time
 * per request (client and server both run here); the direct SQL as a client
 * would run it (begin, settings, statement, commit: one round trip each); the
 * same sent as one batch ("1 trip", as the server sends it); overhead = server
 * p50 minus direct p50. The three are timed in turns, so they share the machine.
 * BENCH_ONLY=rest runs only the REST requests; BENCH_ENGINE=pglite|postgres one
 * engine; BENCH_CALLS the number of samples.
 */
import { randomUUID } from "node:crypto";
import { openPostgres } from "../src/database/postgres.js";
import { requestContextStatement, setRequestContext } from "../src/database/request-context.js";
import { findSupabaseDir } from "../src/paths.js";
import { quoteIdent } from "../src/rest/sql.js";
import { type RunningStack, startStack } from "../src/server.js";
import { functionOverhead } from "./functions.js";
import { closeHttp, type HttpResponse, http } from "./http.js";
import { measureTogether, ms, stats } from "./measure.js";
import { realtimeLatency } from "./realtime.js";
import { startupFootprint } from "./startup.js";
import { storageThroughput } from "./storage.js";

const demoUser = "de300000-0000-4000-8000-000000000001";
const capitalsDeck = "de300000-0000-4000-8000-0000000000c1";
const supabaseDir = findSupabaseDir();

/** The rows as one JSON text, as PostgREST (and this stack) builds response bodies in SQL. */
const asJson = (query: string) => `select coalesce(json_agg(t), '[]')::text as body from (${query}) t`;

interface Case {
  name: string;
  request: (stack: RunningStack, token: string) => Promise<HttpResponse>;
  /** The same statement run directly, as the signed-in user, in the same transaction shape. */
  sql: { text: string; params: () => unknown[] };
  /** A read that must find rows: an empty answer would time what the policies filtered out. */
  findsRows?: boolean;
}

const deckColumns = "id,owner_id,name,description,is_public,new_per_day,reviews_per_day,created_at,updated_at";

const cases: Case[] = [
  {
    name: "select by primary key",
    // Decks are read column by column (a copy's source is not among them), so `*` would be refused.
    request: (s, token) =>
      http(`${s.url}/rest/v1/decks?select=${deckColumns}&id=eq.${capitalsDeck}`, { headers: headers(s, token) }),
    sql: { text: asJson(`select ${deckColumns} from public.decks where id = $1`), params: () => [capitalsDeck] },
    findsRows: true,
  },
  {
    name: "filtered select with embed",
    request: (s, token) =>
      http(
        `${s.url}/rest/v1/notes?select=id,fields,cards(id,ordinal)&deck_id=eq.${capitalsDeck}&order=created_at&limit=20`,
        {
          headers: headers(s, token),
        },
      ),
    sql: {
      text: asJson(`select n.id, n.fields, (select coalesce(json_agg(json_build_object('id', c.id, 'ordinal', c.ordinal)), '[]')
               from public.cards c where c.note_id = n.id) as cards
             from public.notes n where n.deck_id = $1 order by n.created_at limit 20`),
      params: () => [capitalsDeck],
    },
    findsRows: true,
  },
  {
    name: "insert",
    request: (s, token) =>
      http(`${s.url}/rest/v1/notes`, {
        method: "POST",
        headers: { ...headers(s, token), "content-type": "application/json", prefer: "return=minimal" },
        body: JSON.stringify({ deck_id: capitalsDeck, kind: "basic", fields: { front: randomUUID(), back: "x" } }),
      }),
    sql: {
      text: "insert into public.notes (deck_id, kind, fields) values ($1, 'basic', $2)",
      params: () => [capitalsDeck, JSON.stringify({ front: randomUUID(), back: "x" })],
    },
  },
  {
    name: "rpc study_queue",
    request: (s, token) =>
      http(`${s.url}/rest/v1/rpc/study_queue`, {
        method: "POST",
        headers: { ...headers(s, token), "content-type": "application/json" },
        body: "{}",
      }),
    sql: { text: asJson("select * from public.study_queue()"), params: () => [] },
  },
];

function headers(stack: RunningStack, token: string) {
  return { apikey: stack.anonKey, authorization: `Bearer ${token}` };
}

const claims = {
  sub: demoUser,
  role: "authenticated",
  aud: "authenticated",
  email: "demo@engram.local",
  aal: "aal1",
  session_id: randomUUID(),
  is_anonymous: false,
};

async function benchEngine(label: string, databaseUrl?: string) {
  const running = await startStack({ supabaseDir, dataDir: null, port: 0, databaseUrl, seed: true });
  try {
    // The token's session must exist: the policies refuse a session that has ended.
    await running.stack.db.query(
      "insert into auth.sessions (id, user_id, created_at, updated_at, aal) values ($1, $2, now(), now(), 'aal1')",
      [claims.session_id, demoUser],
    );
    const token = await running.stack.keys.sign({ ...claims, exp: Math.floor(Date.now() / 1000) + 3600 });
    // The search_path the server sets for a request: a different one would make Postgres
    // re-plan the triggers' and functions' cached statements whenever the two alternate.
    const { schemas, extraSearchPath } = running.stack.config.api;
    const searchPath = [schemas[0] ?? "public", ...extraSearchPath.filter((s) => s !== schemas[0])]
      .map(quoteIdent)
      .join(", ");
    const context = { role: "authenticated", claims, searchPath };
    console.log(`\n== ${label}`);
    console.log(
      `  ${"request".padEnd(28)} ${"rps".padStart(7)} ${"p50".padStart(9)} ${"p95".padStart(9)}   cpu/req   direct SQL p50     p95   1 trip p50   overhead p50`,
    );
    for (const c of cases) {
      if (c.findsRows) {
        const first = await c.request(running, token);
        if ((await first.text()).trim() === "[]") throw new Error(`${c.name}: the request found no rows`);
      }
      const {
        samples: [viaHttp = [], direct = [], batched = []],
        cpuMs: [cpuMs = 0],
      } = await measureTogether([
        async () => {
          const response = await c.request(running, token);
          if (!response.ok) throw new Error(`${c.name}: HTTP ${response.status} ${await response.text()}`);
          await response.arrayBuffer();
        },
        () =>
          running.stack.db.transaction(async (tx) => {
            await setRequestContext(tx, context);
            await tx.query(c.sql.text, c.sql.params());
          }),
        // The same sent as one batch (one round trip on PostgreSQL), as the server sends a request.
        async () => {
          await running.stack.db.batch([
            requestContextStatement(context),
            { text: c.sql.text, params: c.sql.params() },
          ]);
        },
      ]);
      const h = stats(viaHttp);
      const d = stats(direct);
      const b = stats(batched);
      // Client and server share the process: cpu/req counts both sides of a request.
      console.log(
        `  ${c.name.padEnd(28)} ${h.rps.toFixed(0).padStart(7)} ${ms(h.p50)} ${ms(h.p95)} ${ms(cpuMs)}   ${ms(d.p50)} ${ms(d.p95)}    ${ms(b.p50)}      ${ms(h.p50 - d.p50)}`,
      );
    }
    if (!restOnly) await storageThroughput(running, token, demoUser);
  } finally {
    await running.close();
  }
}

// BENCH_ONLY=rest measures just the REST requests (both engines), to iterate on them quickly.
const restOnly = process.env.BENCH_ONLY === "rest";
if (!restOnly) {
  await startupFootprint();
  await functionOverhead();
  await realtimeLatency();
}
// BENCH_ENGINE=postgres (or pglite) benches the REST requests on that engine only.
const engine = process.env.BENCH_ENGINE;
if (engine !== "postgres") await benchEngine("PGlite (in memory)");
const url = process.env.DATABASE_URL || process.env.BENCH_DATABASE_URL;
if (url && engine !== "pglite") {
  await withScratchDatabase(url, (target) => benchEngine(`PostgreSQL (${new URL(url).host})`, target));
  if (!restOnly) await withScratchDatabase(url, (target) => realtimeLatency(target));
  console.log("\ntarget: REST overhead on PostgreSQL under 1 ms per request at p50");
} else {
  console.log("\n== PostgreSQL: skipped — set DATABASE_URL or BENCH_DATABASE_URL to a server");
}

await closeHttp();

/** Runs `fn` on a new database of the server at `url`, dropped afterwards. */
async function withScratchDatabase(url: string, fn: (databaseUrl: string) => Promise<void>): Promise<void> {
  const name = `bench_stack_${randomUUID().slice(0, 8)}`;
  const admin = openPostgres({ connectionString: url, max: 1 });
  await admin.exec(`create database ${name}`);
  const target = new URL(url);
  target.pathname = `/${name}`;
  try {
    await fn(target.toString());
  } finally {
    await admin.exec(`drop database if exists ${name} with (force)`);
    await admin.close();
  }
}
