import { beforeAll, describe, expect, it } from "vitest";
import { clientFor, newUser, stackPerFile } from "../support/stack.js";

// Supabase gives each API role a statement_timeout (anon 3 s, authenticated
// 8 s, set on the roles), and PostgREST applies the impersonated role's
// settings in every request transaction, so one slow statement cannot hold a
// connection. PGlite takes the setting but cannot cancel a statement.

const running = stackPerFile();
const onPostgres = Boolean(process.env.DATABASE_URL);
let token: string;

beforeAll(async () => {
  // Functions of the test's own, created as the database owner; the REST
  // server finds them by re-reading its schema cache on the first miss.
  await running.stack.db.exec(`
    create function public.request_statement_timeout() returns text
      language sql stable as $$ select current_setting('statement_timeout') $$;
    create function public.sleep_seconds(seconds float8) returns text
      language sql volatile as $$ select pg_sleep(seconds)::text || 'slept' $$;
    create function public.long_statement_timeout() returns text
      language sql stable set statement_timeout = '45s' as $$ select current_setting('statement_timeout') $$;
    grant execute on function public.request_statement_timeout(), public.sleep_seconds(float8),
      public.long_statement_timeout() to anon, authenticated;
    create table public.words (word text not null);
    insert into public.words values ('aaaaaaaaaaaaaaaaaaaaaaaaaaaaaab'), ('mitochondria');
    grant select on public.words to anon;
  `);
  token = (await newUser(running)).token;
});

describe("statement_timeout per role", () => {
  it("runs an anonymous request with anon's 3 s and a signed-in one with authenticated's 8 s", async () => {
    const anon = clientFor(running);
    const signedIn = clientFor(running, running.anonKey, { global: { headers: { Authorization: `Bearer ${token}` } } });
    expect(await anon.rpc("request_statement_timeout")).toMatchObject({ data: "3s", error: null });
    expect(await signedIn.rpc("request_statement_timeout")).toMatchObject({ data: "8s", error: null });
  });

  it("hoists a function's own statement_timeout into the request, as PostgREST does", async () => {
    const signedIn = clientFor(running, running.anonKey, { global: { headers: { Authorization: `Bearer ${token}` } } });
    expect(await signedIn.rpc("long_statement_timeout")).toMatchObject({ data: "45s", error: null });
    expect(await signedIn.rpc("request_statement_timeout")).toMatchObject({ data: "8s", error: null });
  });

  it(
    onPostgres
      ? "cancels an anonymous statement after 3 s with 57014 in PostgREST's error shape, and keeps answering"
      : "PGlite lets an anonymous statement run past 3 s: it cannot cancel one (see README)",
    async () => {
      const res = await fetch(`${running.url}/rest/v1/rpc/sleep_seconds`, {
        method: "POST",
        headers: { apikey: running.anonKey, "Content-Type": "application/json" },
        body: JSON.stringify({ seconds: 3.5 }),
      });
      const body = (await res.json()) as unknown;
      if (onPostgres) {
        expect({ status: res.status, body }).toEqual({
          status: 500,
          body: { code: "57014", details: null, hint: null, message: "canceling statement due to statement timeout" },
        });
      } else {
        expect({ status: res.status, body }).toEqual({ status: 200, body: "slept" });
      }
      const { data, error } = await clientFor(running).rpc("request_statement_timeout");
      expect(error).toBeNull();
      expect(data).toBe("3s");
    },
  );

  it(
    onPostgres
      ? "cancels a regex filter that would compile for a minute at 3 s"
      : "refuses a regex filter PGlite would compile for a minute, as PostgreSQL's own 'too complex'",
    async () => {
      const anon = clientFor(running);
      const { status, error } = await anon.from("words").select("word").filter("word", "match", "^((a|a?){40}){40}$");
      expect({ status, code: error?.code }).toEqual(
        onPostgres ? { status: 500, code: "57014" } : { status: 400, code: "2201B" },
      );
      // Nested in a logic tree too, and an ordinary pattern still runs.
      const nested = await anon.from("words").select("word").or("word.eq.x,word.imatch.^((a|a?){40}){40}$");
      expect(nested.error?.code).toBe(onPostgres ? "57014" : "2201B");
      expect((await anon.from("words").select("word").filter("word", "match", "^mito")).data).toEqual([
        { word: "mitochondria" },
      ]);
    },
  );
});
