import { beforeAll, describe, expect, it } from "vitest";
import { clientFor, stackPerFile } from "../support/stack.js";

const running = stackPerFile();
let db: ReturnType<typeof clientFor>;
beforeAll(() => {
  db = clientFor(running);
});

const alice = "00000000-0000-0000-0000-000000000001";

describe("select", () => {
  it("returns every row and column with select *", async () => {
    const { data, error, status } = await db.from("users").select().order("username");
    expect(error).toBeNull();
    expect(status).toBe(200);
    expect(data?.map((u) => u.username)).toEqual(["alice", "bob", "carol"]);
    expect(data?.[0]).toEqual({
      id: alice,
      username: "alice",
      full_name: "Alice Liddell",
      status: "online",
      age: 30,
      tags: ["admin", "dev"],
      profile: { city: "Paris", langs: ["en", "fr"] },
    });
  });

  it("renames with aliases, casts and extracts JSON paths", async () => {
    const { data, error } = await db
      .from("users")
      .select("name:username,age::text,profile->>city,first_lang:profile->langs->0")
      .eq("username", "alice");
    expect(error).toBeNull();
    expect(data).toEqual([{ name: "alice", age: "30", city: "Paris", first_lang: "en" }]);
  });

  it("embeds a to-one relationship as an object", async () => {
    const { data, error } = await db.from("messages").select("id,author:users(username)").eq("id", 1);
    expect(error).toBeNull();
    expect(data).toEqual([{ id: 1, author: { username: "alice" } }]);
  });

  it("embeds a to-many relationship as an array, ordered and limited", async () => {
    const { data, error } = await db
      .from("channels")
      .select("slug,messages(id)")
      .eq("slug", "general")
      .order("id", { referencedTable: "messages", ascending: false })
      .limit(2, { referencedTable: "messages" });
    expect(error).toBeNull();
    expect(data).toEqual([{ slug: "general", messages: [{ id: 3 }, { id: 2 }] }]);
  });

  it("embeds an empty to-many relationship as []", async () => {
    const { data } = await db
      .from("users")
      .select("username,messages(id)")
      .eq("username", "carol")
      .eq("messages.id", 999);
    expect(data).toEqual([{ username: "carol", messages: [] }]);
  });

  it("embeds many-to-many through the junction table named as hint", async () => {
    const { data, error } = await db.from("channels").select("slug,users!channel_members(username)").eq("id", 1);
    expect(error).toBeNull();
    expect(data?.[0]?.users.map((u: { username: string }) => u.username).sort()).toEqual(["alice", "bob", "carol"]);
  });

  it("disambiguates with a foreign-key column hint", async () => {
    const { data, error } = await db.from("channels").select("slug,creator:users!created_by(username)").eq("id", 2);
    expect(error).toBeNull();
    expect(data).toEqual([{ slug: "random", creator: { username: "bob" } }]);
  });

  it("reports an ambiguous embed as PGRST201 with candidates", async () => {
    const { error, status } = await db.from("channels").select("slug,users(username)");
    expect(status).toBe(300);
    expect(error?.code).toBe("PGRST201");
    expect(error?.hint).toContain("users!");
  });

  it("describes the ambiguous relationships as PostgREST does", async () => {
    const { error } = await db.from("channels").select("slug,users(username)");
    expect(error?.details).toEqual(
      expect.arrayContaining([
        {
          cardinality: "many-to-one",
          embedding: "channels with users",
          relationship: "channels_created_by_fkey using channels(created_by) and users(id)",
        },
        {
          cardinality: "many-to-many",
          embedding: "channels with users",
          relationship:
            "channel_members using channel_members_channel_id_fkey(channel_id) and channel_members_user_id_fkey(user_id)",
        },
      ]),
    );
  });

  it("spreads a to-many embed's columns as arrays", async () => {
    const { data, error } = await db.from("channels").select("slug,...messages(message_ids:id)").eq("id", 2);
    expect(error).toBeNull();
    expect(data).toEqual([{ slug: "random", message_ids: [4] }]);
  });

  it("filters by an embed selected with empty parentheses without returning it", async () => {
    const { data, error } = await db.from("messages").select("id,users!inner()").eq("users.username", "carol");
    expect(error).toBeNull();
    expect(data).toEqual([{ id: 3 }]);
  });

  it("returns empty objects for an empty select", async () => {
    const res = await fetch(`${running.url}/rest/v1/slots?select=&id=eq.1`, { headers: { apikey: running.anonKey } });
    expect(await res.json()).toEqual([{}]);
  });

  it("reports a missing relationship as PGRST200", async () => {
    const { error, status } = await db.from("slots").select("id,users(*)");
    expect(status).toBe(400);
    expect(error?.code).toBe("PGRST200");
    expect(error?.message).toBe("Could not find a relationship between 'slots' and 'users' in the schema cache");
  });

  it("drops parents without a match with !inner", async () => {
    const { data, error } = await db
      .from("users")
      .select("username,messages!inner(id)")
      .eq("messages.body", "Random thoughts");
    expect(error).toBeNull();
    expect(data).toEqual([{ username: "bob", messages: [{ id: 4 }] }]);
  });

  it("filters parents by an embed's presence with not.is.null", async () => {
    const { data } = await db
      .from("users")
      .select("username,messages(id)")
      .eq("messages.channel_id", 3)
      .not("messages", "is", null);
    expect(data).toEqual([{ username: "alice", messages: [{ id: 5 }] }]);
  });

  it("spreads a to-one embed's columns into the parent", async () => {
    const { data, error } = await db.from("messages").select("id,...users(author:username)").eq("id", 2);
    expect(error).toBeNull();
    expect(data).toEqual([{ id: 2, author: "bob" }]);
  });

  it("nests embeds", async () => {
    const { data, error } = await db
      .from("messages")
      .select("id,channels(slug,creator:users!created_by(username))")
      .eq("id", 4);
    expect(error).toBeNull();
    expect(data).toEqual([{ id: 4, channels: { slug: "random", creator: { username: "bob" } } }]);
  });

  it("embeds through a view using its base table's foreign keys", async () => {
    const fromView = await db.from("channel_stats").select("slug,messages(id)").eq("slug", "random");
    expect(fromView.error).toBeNull();
    expect(fromView.data).toEqual([{ slug: "random", messages: [{ id: 4 }] }]);
    const toView = await db.from("messages").select("id,channel_stats(message_count)").eq("id", 5);
    expect(toView.error).toBeNull();
    expect(toView.data).toEqual([{ id: 5, channel_stats: { message_count: 1 } }]);
  });

  it("counts an embed with the legacy count column", async () => {
    const { data, error } = await db.from("channels").select("slug,messages(count)").order("id");
    expect(error).toBeNull();
    expect(data).toEqual([
      { slug: "general", messages: [{ count: 3 }] },
      { slug: "random", messages: [{ count: 1 }] },
      { slug: "secret", messages: [{ count: 1 }] },
    ]);
  });

  it("counts rows, grouped by the other selected columns", async () => {
    const total = await db.from("messages").select("count");
    expect(total.data).toEqual([{ count: 5 }]);
    const grouped = await db.from("messages").select("channel_id,n:count").order("channel_id");
    expect(grouped.error).toBeNull();
    expect(grouped.data).toEqual([
      { channel_id: 1, n: 3 },
      { channel_id: 2, n: 1 },
      { channel_id: 3, n: 1 },
    ]);
  });

  it("selects, filters and orders by a computed field", async () => {
    const { data, error } = await db
      .from("users")
      .select("username,display_name")
      .like("display_name", "%Stone%")
      .order("display_name");
    expect(error).toBeNull();
    expect(data).toEqual([{ username: "bob", display_name: "bob (Bob Stone)" }]);
  });

  it("reads views", async () => {
    const { data, error } = await db.from("channel_stats").select("slug,message_count").order("id");
    expect(error).toBeNull();
    expect(data).toEqual([
      { slug: "general", message_count: 3 },
      { slug: "random", message_count: 1 },
      { slug: "secret", message_count: 1 },
    ]);
  });
});

describe("filters", () => {
  const ids = async (query: PromiseLike<{ data: { id: number }[] | null; error: unknown }>) => {
    const { data, error } = await query;
    expect(error).toBeNull();
    return data?.map((r) => r.id);
  };
  const messages = () => db.from("messages").select("id").order("id");

  it("compares with eq, neq, gt, gte, lt, lte", async () => {
    expect(await ids(messages().eq("channel_id", 1))).toEqual([1, 2, 3]);
    expect(await ids(messages().neq("channel_id", 1))).toEqual([4, 5]);
    expect(await ids(messages().gt("id", 3))).toEqual([4, 5]);
    expect(await ids(messages().gte("id", 3))).toEqual([3, 4, 5]);
    expect(await ids(messages().lt("id", 2))).toEqual([1]);
    expect(await ids(messages().lte("id", 2))).toEqual([1, 2]);
  });

  it("matches patterns with like, ilike, match and imatch", async () => {
    expect(await ids(messages().like("body", "%fox%"))).toEqual([3]);
    expect(await ids(messages().ilike("body", "h*"))).toEqual([1, 2]);
    expect(await ids(messages().likeAnyOf("body", ["Hello%", "Secret%"]))).toEqual([1, 5]);
    expect(await ids(messages().match({ channel_id: 1, author_id: alice }))).toEqual([1]);
    expect(await ids(messages().regexMatch("body", "^[HR]"))).toEqual([1, 2, 4]);
    expect(await ids(messages().regexIMatch("body", "^s"))).toEqual([5]);
  });

  it("tests null, booleans and distinctness with is and isdistinct", async () => {
    const users = () => db.from("users").select("id:username").order("username");
    expect(await ids(users().is("status", null) as never)).toEqual(["bob"]);
    expect(await ids(users().not("status", "is", null) as never)).toEqual(["alice", "carol"]);
    expect(await ids(users().isDistinct("status", "online") as never)).toEqual(["bob", "carol"]);
  });

  it("selects lists with in and not.in, quoting values with commas", async () => {
    expect(await ids(messages().in("id", [1, 3, 5]))).toEqual([1, 3, 5]);
    expect(await ids(messages().not("id", "in", "(1,3,5)"))).toEqual([2, 4]);
    expect(await ids(messages().in("body", ["Hi Alice, how are you?", "Hello world"]))).toEqual([1, 2]);
    expect(await ids(messages().in("id", []))).toEqual([]);
  });

  it("compares arrays and jsonb with cs, cd and ov", async () => {
    const users = () => db.from("users").select("id:username").order("username");
    expect(await ids(users().contains("tags", ["dev"]) as never)).toEqual(["alice", "bob"]);
    expect(await ids(users().containedBy("tags", ["dev"]) as never)).toEqual(["bob", "carol"]);
    expect(await ids(users().overlaps("tags", ["admin", "x"]) as never)).toEqual(["alice"]);
    expect(await ids(users().contains("profile", { city: "Berlin" }) as never)).toEqual(["bob"]);
  });

  it("compares ranges with sl, sr, nxl, nxr, adj and ov", async () => {
    const slots = () => db.from("slots").select("id").order("id");
    expect(await ids(slots().rangeLt("during", "[10,20)"))).toEqual([1, 2]);
    expect(await ids(slots().rangeGt("during", "[10,20)"))).toEqual([3]);
    expect(await ids(slots().rangeGte("during", "[5,6)"))).toEqual([2, 3]);
    expect(await ids(slots().rangeLte("during", "[1,5)"))).toEqual([1]);
    expect(await ids(slots().rangeAdjacent("during", "[10,20)"))).toEqual([2, 3]);
    expect(await ids(slots().overlaps("during", "[4,6)"))).toEqual([1, 2]);
  });

  it("searches text with fts, plfts, phfts and wfts, with a configuration", async () => {
    expect(await ids(messages().textSearch("search", "quick & fox"))).toEqual([3]);
    expect(await ids(messages().textSearch("search", "brown fox", { type: "plain", config: "english" }))).toEqual([3]);
    expect(await ids(messages().textSearch("search", "quick brown", { type: "phrase" }))).toEqual([3]);
    expect(
      await ids(messages().textSearch("body", "hello or secret", { type: "websearch", config: "english" })),
    ).toEqual([1, 5]);
  });

  it("filters on JSON paths", async () => {
    expect(await ids(messages().eq("data->>priority", "2"))).toEqual([2]);
    expect(await ids(messages().eq("data->meta->>lang", "en"))).toEqual([1]);
    expect(await ids(messages().gt("data->priority", 1))).toEqual([2, 4]);
  });

  it("combines conditions with or, nested and, and not", async () => {
    expect(await ids(messages().or("id.eq.1,and(channel_id.eq.2,body.ilike.*thoughts*)"))).toEqual([1, 4]);
    expect(await ids(messages().or('body.eq."Hi Alice, how are you?",id.in.(5)'))).toEqual([2, 5]);
    expect(await ids(messages().not("body", "ilike", "h*").lt("id", 5))).toEqual([3, 4]);
    expect(await ids(messages().or("id.gt.3,not.and(id.gt.1,id.lt.3)"))).toEqual([1, 3, 4, 5]);
  });

  it("applies or= trees inside an embed", async () => {
    const { data, error } = await db
      .from("channels")
      .select("slug,messages(id)")
      .eq("id", 1)
      .or("id.eq.1,id.eq.3", { referencedTable: "messages" });
    expect(error).toBeNull();
    expect(data).toEqual([{ slug: "general", messages: [{ id: 1 }, { id: 3 }] }]);
  });

  it("filters enums", async () => {
    const { data } = await db.from("channels").select("slug").eq("kind", "private");
    expect(data).toEqual([{ slug: "secret" }]);
  });
});

describe("order, range and count", () => {
  it("orders by several columns with nulls placement", async () => {
    const { data } = await db
      .from("users")
      .select("username")
      .order("status", { ascending: true, nullsFirst: true })
      .order("username");
    expect(data?.map((u) => u.username)).toEqual(["bob", "carol", "alice"]);
  });

  it("orders by a JSON path", async () => {
    const { data, error } = await db
      .from("messages")
      .select("id")
      .order("data->priority", { ascending: false, nullsFirst: false })
      .order("id");
    expect(error).toBeNull();
    expect(data?.map((m) => m.id)).toEqual([4, 2, 1, 3, 5]);
  });

  it("orders by a to-one embed's column", async () => {
    const res = await fetch(
      `${running.url}/rest/v1/messages?select=id,users(username)&order=users(username).desc,id.asc`,
      {
        headers: { apikey: running.anonKey },
      },
    );
    expect(res.status).toBe(200);
    const rows = (await res.json()) as { id: number }[];
    expect(rows.map((r) => r.id)).toEqual([3, 2, 4, 1, 5]);
  });

  it("pages with range and reports the total with count=exact as 206", async () => {
    const { data, count, status, error } = await db
      .from("messages")
      .select("id", { count: "exact" })
      .order("id")
      .range(1, 2);
    expect(error).toBeNull();
    expect(data).toEqual([{ id: 2 }, { id: 3 }]);
    expect(count).toBe(5);
    expect(status).toBe(206);
  });

  it("answers 200 when the page covers everything", async () => {
    const { count, status } = await db.from("messages").select("id", { count: "exact" });
    expect(count).toBe(5);
    expect(status).toBe(200);
  });

  it("accepts planned and estimated counts", async () => {
    const planned = await db.from("messages").select("id", { count: "planned", head: true });
    expect(typeof planned.count).toBe("number");
    const estimated = await db.from("messages").select("id", { count: "estimated", head: true });
    expect(typeof estimated.count).toBe("number");
  });

  it("counts with HEAD and no body", async () => {
    const { data, count, error } = await db
      .from("messages")
      .select("*", { count: "exact", head: true })
      .eq("channel_id", 1);
    expect(error).toBeNull();
    expect(data).toBeNull();
    expect(count).toBe(3);
  });

  it("sets Content-Range, */0 when empty and 416 past the end", async () => {
    const headers = { apikey: running.anonKey, Prefer: "count=exact" };
    const page = await fetch(`${running.url}/rest/v1/messages?select=id&order=id&limit=2`, { headers });
    expect(page.headers.get("content-range")).toBe("0-1/5");
    const none = await fetch(`${running.url}/rest/v1/messages?id=eq.999`, { headers });
    expect(none.status).toBe(200);
    expect(none.headers.get("content-range")).toBe("*/0");
    const plain = await fetch(`${running.url}/rest/v1/messages?select=id&limit=2`, {
      headers: { apikey: running.anonKey },
    });
    expect(plain.headers.get("content-range")).toBe("0-1/*");
    const past = await fetch(`${running.url}/rest/v1/messages?offset=10`, { headers });
    expect(past.status).toBe(416);
    expect(((await past.json()) as { code: string }).code).toBe("PGRST103");
  });

  it("honours a Range request header", async () => {
    const res = await fetch(`${running.url}/rest/v1/messages?select=id&order=id`, {
      headers: { apikey: running.anonKey, Range: "1-2", "Range-Unit": "items" },
    });
    expect(await res.json()).toEqual([{ id: 2 }, { id: 3 }]);
    expect(res.headers.get("content-range")).toBe("1-2/*");
  });
});

describe("media types", () => {
  it("returns one object with single()", async () => {
    const { data, error } = await db.from("users").select("username").eq("id", alice).single();
    expect(error).toBeNull();
    expect(data).toEqual({ username: "alice" });
  });

  it("answers 406 PGRST116 when single() matches several rows", async () => {
    const { error, status } = await db.from("users").select("username").single();
    expect(status).toBe(406);
    expect(error).toMatchObject({
      code: "PGRST116",
      details: "The result contains 3 rows",
      message: "Cannot coerce the result to a single JSON object",
    });
  });

  it("returns null from maybeSingle() when nothing matches", async () => {
    const { data, error } = await db.from("users").select().eq("username", "nobody").maybeSingle();
    expect(error).toBeNull();
    expect(data).toBeNull();
  });

  it("drops null-valued keys with stripNulls()", async () => {
    const { data, error } = await db.from("users").select("username,status").eq("username", "bob").stripNulls();
    expect(error).toBeNull();
    expect(data).toEqual([{ username: "bob" }]);
    const one = await db.from("users").select("username,status").eq("username", "bob").single().stripNulls();
    expect(one.data).toEqual({ username: "bob" });
  });

  it("renders CSV with a header row", async () => {
    const { data, error } = await db.from("users").select("username,age,tags").order("username").limit(2).csv();
    expect(error).toBeNull();
    expect(data).toBe('username,age,tags\nalice,30,"{admin,dev}"\nbob,25,{dev}');
  });

  it("quotes CSV fields as Postgres prints a record: commas, quotes, spaces, newlines, empty text, json", async () => {
    const service = clientFor(running, running.serviceRoleKey);
    const rows = [
      { id: "00000000-0000-0000-0000-0000000000c1", username: "csv,comma", full_name: 'say "hi"', status: "" },
      { id: "00000000-0000-0000-0000-0000000000c2", username: "csv-line", full_name: "two\nlines", status: null },
    ];
    expect((await service.from("users").insert(rows)).error).toBeNull();
    const { data, error } = await db
      .from("users")
      .select("username,full_name,status,profile,tags,is_adult:age::bool")
      .like("username", "csv*")
      .order("username")
      .csv();
    expect(error).toBeNull();
    expect(data).toBe(
      [
        "username,full_name,status,profile,tags,is_adult",
        '"csv,comma","say ""hi""","",{},{},',
        'csv-line,"two\nlines",,{},{},',
      ].join("\n"),
    );
    const empty = await db.from("users").select("username").eq("username", "nobody").csv();
    expect(empty.data).toBe("\n");
    const json = await db.from("users").select("username,profile").eq("username", "alice").csv();
    expect(json.data).toBe('username,profile\nalice,"{""city"": ""Paris"", ""langs"": [""en"", ""fr""]}"');
  });

  it("refuses an unknown Accept type with 406 PGRST107", async () => {
    const res = await fetch(`${running.url}/rest/v1/users`, {
      headers: { apikey: running.anonKey, Accept: "application/xml" },
    });
    expect(res.status).toBe(406);
    expect(((await res.json()) as { code: string }).code).toBe("PGRST107");
  });

  it("refuses a schema that is not exposed with 406 PGRST106", async () => {
    const { error, status } = await db.schema("auth").from("users").select();
    expect(status).toBe(406);
    expect(error).toMatchObject({ code: "PGRST106", message: "Invalid schema: auth" });
  });
});

describe("GeoJSON", () => {
  // Neither PGlite nor the PostgreSQL server here has PostGIS, whose ST_AsGeoJSON PostgREST
  // calls: the database's own error comes back, as from PostgREST on a database without it.
  it("answers the missing ST_AsGeoJSON as PostgREST does without PostGIS", async () => {
    const { data, error, status } = await db.from("users").select("username").geojson();
    expect(data).toBeNull();
    expect(status).toBe(404);
    expect(error).toMatchObject({ code: "42883", message: "function st_asgeojson(record) does not exist" });
  });
});
