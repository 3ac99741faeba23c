import { beforeAll, describe, expect, it } from "vitest";
import { clientFor, stackPerFile } from "../support/stack.js";

const running = stackPerFile();
let db: ReturnType<typeof clientFor>;
beforeAll(() => {
  db = clientFor(running, running.serviceRoleKey);
});

describe("computed relationships", () => {
  it("embeds a function returning one row as an object", async () => {
    const { data, error } = await db.from("channels").select("slug, creator(username)").order("id");
    expect(error).toBeNull();
    expect(data).toEqual([
      { slug: "general", creator: { username: "alice" } },
      { slug: "random", creator: { username: "bob" } },
      { slug: "secret", creator: { username: "alice" } },
    ]);
  });

  it("embeds a set-returning function as an array, with the embed's filters, order and limit", async () => {
    const { data, error } = await db
      .from("channels")
      .select("slug, channel_messages(id, body)")
      .eq("slug", "general")
      .gt("channel_messages.id", 1)
      .order("id", { referencedTable: "channel_messages", ascending: false })
      .limit(1, { referencedTable: "channel_messages" });
    expect(error).toBeNull();
    expect(data).toEqual([{ slug: "general", channel_messages: [{ id: 3, body: "The quick brown fox jumps" }] }]);
  });

  it("treats a set-returning function declared rows 1 as to-one, and nests embeds inside it", async () => {
    const { data, error } = await db
      .from("channels")
      .select("slug, first:first_message(body, author:users(username))")
      .eq("slug", "random")
      .single();
    expect(error).toBeNull();
    expect(data).toEqual({ slug: "random", first: { body: "Random thoughts", author: { username: "bob" } } });
  });

  it("filters parents by a computed relationship with !inner", async () => {
    const { data, error } = await db
      .from("channels")
      .select("slug, channel_messages!inner(body)")
      .eq("channel_messages.body", "Secret plans");
    expect(error).toBeNull();
    expect(data).toEqual([{ slug: "secret", channel_messages: [{ body: "Secret plans" }] }]);
  });

  it("embeds a computed relationship in the rows a write returns", async () => {
    const { data, error } = await db
      .from("channels")
      .insert({ slug: "computed-write", created_by: "00000000-0000-0000-0000-000000000002" })
      .select("slug, creator(username), channel_messages(id)")
      .single();
    expect(error).toBeNull();
    expect(data).toEqual({ slug: "computed-write", creator: { username: "bob" }, channel_messages: [] });
  });

  it("embeds a computed relationship of the rows a function returns", async () => {
    const { data, error } = await db
      .rpc("messages_in", { channel_slug: "random" })
      .select("id, author:users(username)");
    expect(error).toBeNull();
    expect(data).toEqual([{ id: 4, author: { username: "bob" } }]);
    const viaFunction = await db
      .from("messages")
      .select("id, channel:channels(slug, creator(username))")
      .eq("id", 4)
      .single();
    expect(viaFunction.error).toBeNull();
    expect(viaFunction.data).toEqual({ id: 4, channel: { slug: "random", creator: { username: "bob" } } });
  });
});

describe("computed fields", () => {
  it("selects, filters and orders by a function of the row", async () => {
    const { data, error } = await db
      .from("users")
      .select("username, display_name")
      .like("display_name", "*Stone*")
      .order("display_name");
    expect(error).toBeNull();
    expect(data).toEqual([{ username: "bob", display_name: "bob (Bob Stone)" }]);
  });

  it("reads a computed field of rows a write returns", async () => {
    const { data, error } = await db
      .from("users")
      .update({ status: "busy" })
      .eq("username", "carol")
      .select("display_name")
      .single();
    expect(error).toBeNull();
    expect(data).toEqual({ display_name: "carol (Carol Danvers)" });
  });
});
