/**
 * Plans for an operation that missed its target. A SQL or PL/pgSQL function
 * shows as one opaque node under EXPLAIN, so this also prints:
 * - on PostgreSQL, the plans of the statements inside the function as they
 *   ran (auto_explain with log_nested_statements, sent to this client);
 * - for study_queue, the function body (read from pg_proc) run as a generic
 *   prepared statement, which is how PostgreSQL 15 plans a SQL function body
 *   (without the argument values).
 */

import { createScheduler } from "@engram/core";
import { setRequestContext } from "@engram/local-stack";
import type pg from "pg";
import type { Operation } from "./config.js";
import type { Engine } from "./engines.js";
import type { Account } from "./load.js";
import { asUser } from "./measure.js";
import { answerParams, fetchQueue, recordReviewSql, type StatsOperation, statsSql, studyQueueSql } from "./workload.js";

export async function explainMissed(engine: Engine, account: Account, operation: Operation) {
  console.log(`\n  ---- ${operation} missed its target on ${engine.kind}: plans ----`);
  if (operation === "record_review") {
    const params = await nextAnswer(engine, account);
    await printNested(engine, account, recordReviewSql, params, "commit");
    return;
  }
  if (operation in statsSql) {
    const sql = statsSql[operation as StatsOperation];
    await printNested(engine, account, sql, sql.includes("$1") ? [account.deckIds[0]] : [], "rollback");
    return;
  }
  const deckId = operation === "study_queue(deck)" ? (account.deckIds[0] ?? null) : null;
  section(`explain (analyze, buffers) ${studyQueueSql.replace("$1::uuid", deckId ? `'${deckId}'` : "null")}`);
  const outer = await asUser(engine.db, account, (tx) =>
    tx.query<{ "QUERY PLAN": string }>(`explain (analyze, buffers) ${studyQueueSql}`, [deckId]),
  );
  print(outer.map((row) => row["QUERY PLAN"]));
  await printNested(engine, account, studyQueueSql, [deckId], "rollback");
  await printGenericBody(engine, account, deckId);
}

/** The study_queue body as a generic prepared statement, run as its owner with the user's claims. */
async function printGenericBody(engine: Engine, account: Account, deckId: string | null) {
  section("study_queue body as a generic prepared statement (p_deck_id → $1, p_now → $2)");
  const lines = await engine.db.transaction(async (tx) => {
    const [fn] = await tx.query<{ body: string }>(
      // public.study_queue may be a wrapper that checks the session first and calls the query in private
      `select prosrc as body from pg_proc
       where oid = coalesce(to_regprocedure('private.study_queue_for_caller(uuid, timestamptz)'),
                            'public.study_queue(uuid, timestamptz)'::regprocedure)`,
    );
    // A PL/pgSQL body (`begin return query …; end`) gives the query it returns.
    const source = fn?.body ?? "";
    const query = /\breturn query\b([\s\S]*);\s*end\s*$/i.exec(source)?.[1] ?? source;
    const body = query.replace(/\bp_deck_id\b/g, "$1").replace(/\bp_now\b/g, "$2");
    await tx.query("select set_config('request.jwt.claims', $1, true)", [
      JSON.stringify({ sub: account.userId, role: "authenticated" }),
    ]);
    await tx.exec("set local plan_cache_mode = force_generic_plan");
    await tx.exec(`prepare bench_study_queue(uuid, timestamptz) as ${body}`);
    try {
      const rows = await tx.query<{ "QUERY PLAN": string }>(
        `explain (analyze, buffers) execute bench_study_queue(${deckId ? `'${deckId}'` : "null"}, null)`,
      );
      return rows.map((row) => row["QUERY PLAN"]);
    } finally {
      await tx.exec("deallocate bench_study_queue");
    }
  });
  print(lines);
}

/** PostgreSQL only: every statement's plan inside the call, as auto_explain logs it. */
async function printNested(
  engine: Engine,
  account: Account,
  sql: string,
  params: unknown[],
  end: "commit" | "rollback",
) {
  const pool = (engine.db as { pool?: pg.Pool }).pool;
  if (!pool) {
    section("statements inside the function: auto_explain is not loaded in PGlite here; see the generic plan below");
    return;
  }
  section("statements inside the function, as run (auto_explain, nested statements)");
  const client = await pool.connect();
  const logged: string[] = [];
  const onNotice = (notice: { message?: string }) => logged.push(notice.message ?? "");
  client.on("notice", onNotice);
  try {
    await client.query("begin");
    try {
      await client.query("load 'auto_explain'");
    } catch (error) {
      console.log(`    (auto_explain unavailable: ${(error as Error).message})`);
      await client.query("rollback");
      return;
    }
    await client.query(`set local auto_explain.log_min_duration = 0;
      set local auto_explain.log_analyze = on;
      set local auto_explain.log_buffers = on;
      set local auto_explain.log_nested_statements = on;
      set local client_min_messages = log`);
    await setRequestContext(
      {
        query: async (q, p) => (await client.query(q, p as unknown[])).rows,
        exec: async (q) => void (await client.query(q)),
      },
      { role: "authenticated", claims: { sub: account.userId, role: "authenticated", email: account.email } },
    );
    await client.query(sql, params);
    await client.query(end);
  } catch (error) {
    await client.query("rollback").catch(() => undefined);
    throw error;
  } finally {
    client.off("notice", onNotice);
    client.release();
  }
  // The last entry is the top-level call; the nested statements come first.
  print(logged.flatMap((message) => [...message.split("\n"), ""]));
}

/** A real answer (Good) to the first card of the queue. */
async function nextAnswer(engine: Engine, account: Account): Promise<unknown[]> {
  const [card] = await fetchQueue(engine.db, account);
  if (!card) throw new Error("the study queue is empty");
  return answerParams(createScheduler(), card, 3, new Date());
}

function section(title: string) {
  console.log(`\n  -- ${title}`);
}

function print(lines: string[]) {
  for (const line of lines) console.log(`    ${line}`);
}
