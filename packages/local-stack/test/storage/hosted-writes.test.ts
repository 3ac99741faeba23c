// Writes as hosted Storage makes them: what the policies see at upload, the
// owner a move records, what a copy takes from its request, and how declared
// types meet a bucket's allowed_mime_types.
import { beforeAll, describe, expect, it } from "vitest";
import { clientFor, stackPerFile } from "../support/stack.js";
import { bytes, userClient } from "./helpers.js";

const stack = stackPerFile();
let alice: Awaited<ReturnType<typeof userClient>>;
let bob: Awaited<ReturnType<typeof userClient>>;

beforeAll(async () => {
  alice = await userClient(stack);
  bob = await userClient(stack);
  await stack.stack.db.exec(`
    insert into storage.buckets (id, name) values ('declared', 'declared'), ('shared', 'shared');
    insert into storage.buckets (id, name, allowed_mime_types)
      values ('typed', 'typed', array['image/*', 'text/plain', 'text/csv; charset=utf-8']);
    -- The metadata each upload's INSERT policy must see, by object name.
    create table public.expected_metadata (name text primary key, metadata jsonb not null);
    grant select on public.expected_metadata to authenticated;
    create policy "declared: what the test expects" on storage.objects for insert to authenticated
      with check (bucket_id = 'declared'
        and metadata = (select e.metadata from public.expected_metadata e where e.name = objects.name));
    create policy "declared: read" on storage.objects for select to authenticated using (bucket_id = 'declared');
    -- Anyone signed in shares this bucket; a write must be owned by the writer.
    create policy "shared: read" on storage.objects for select to authenticated using (bucket_id = 'shared');
    create policy "shared: add" on storage.objects for insert to authenticated
      with check (bucket_id = 'shared' and owner_id = (select auth.uid())::text
        and metadata ->> 'mimetype' is distinct from 'application/x-refused');
    create policy "shared: change" on storage.objects for update to authenticated
      using (bucket_id = 'shared') with check (bucket_id = 'shared' and owner_id = (select auth.uid())::text);
    create policy "typed: add" on storage.objects for insert to authenticated with check (bucket_id = 'typed');
  `);
});

const base64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64");

function upload(bucket: string, name: string, token: string, init: RequestInit & { headers?: Record<string, string> }) {
  return fetch(`${stack.url}/storage/v1/object/${bucket}/${name}`, {
    method: "POST",
    ...init,
    headers: { authorization: `Bearer ${token}`, ...init.headers },
  });
}

async function row(bucket: string, name: string) {
  const [found] = await stack.stack.db.query<{
    owner: string | null;
    owner_id: string | null;
    metadata: Record<string, unknown>;
    user_metadata: Record<string, unknown> | null;
  }>("select owner::text, owner_id, metadata, user_metadata from storage.objects where bucket_id = $1 and name = $2", [
    bucket,
    name,
  ]);
  return found;
}

async function expectMetadata(name: string, metadata: Record<string, unknown>) {
  await stack.stack.db.query("insert into public.expected_metadata values ($1, $2::jsonb)", [
    name,
    JSON.stringify(metadata),
  ]);
}

describe("what the INSERT policy sees at upload", () => {
  it("is the declared mimetype and the request's contentLength, with no size; the stored row is complete", async () => {
    const name = `${alice.id}/raw.txt`;
    await expectMetadata(name, { mimetype: "text/plain", contentLength: 5 });
    const response = await upload("declared", name, alice.token, {
      body: bytes("hello"),
      headers: { "content-type": "text/plain", "x-metadata": base64({ note: "kept" }) },
    });
    expect(response.status).toBe(200);
    const stored = await row("declared", name);
    expect(stored?.metadata).toMatchObject({
      size: 5,
      contentLength: 5,
      mimetype: "text/plain",
      cacheControl: "no-cache",
      httpStatusCode: 200,
    });
    expect(stored?.user_metadata).toEqual({ note: "kept" });
  });

  it("counts the whole multipart body, framing included, as contentLength", async () => {
    const name = `${alice.id}/form.txt`;
    const boundary = "engram-boundary";
    const body = bytes(
      `--${boundary}\r\nContent-Disposition: form-data; name="cacheControl"\r\n\r\n60\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name=""; filename="form.txt"\r\n` +
        `Content-Type: text/plain\r\n\r\nhello\r\n--${boundary}--\r\n`,
    );
    await expectMetadata(name, { mimetype: "text/plain", contentLength: body.byteLength });
    const response = await upload("declared", name, alice.token, {
      body,
      headers: { "content-type": `multipart/form-data; boundary=${boundary}` },
    });
    expect(response.status).toBe(200);
    expect((await row("declared", name))?.metadata).toMatchObject({ size: 5, contentLength: 5 });
    // No user metadata in the request: Storage records an empty object.
    expect((await row("declared", name))?.user_metadata).toEqual({});
  });

  it("has no contentLength for a chunked body", async () => {
    const name = `${alice.id}/chunked.txt`;
    await expectMetadata(name, { mimetype: "text/plain" });
    const stream = new ReadableStream({
      start(controller) {
        controller.enqueue(bytes("hel"));
        controller.enqueue(bytes("lo"));
        controller.close();
      },
    });
    const response = await upload("declared", name, alice.token, {
      body: stream,
      headers: { "content-type": "text/plain" },
      duplex: "half",
    } as RequestInit & { headers: Record<string, string> });
    expect(response.status).toBe(200);
    expect((await row("declared", name))?.metadata).toMatchObject({ size: 5 });
  });

  it("refuses an upload whose declared metadata the policy does not take, and stores nothing", async () => {
    const name = `${alice.id}/refused.txt`;
    await expectMetadata(name, { mimetype: "text/plain", contentLength: 5, size: 5 });
    const response = await upload("declared", name, alice.token, {
      body: bytes("hello"),
      headers: { "content-type": "text/plain" },
    });
    expect(await response.json()).toMatchObject({ statusCode: "403" });
    expect(await row("declared", name)).toBeUndefined();
  });
});

describe("move", () => {
  it("records the mover as owner, so an UPDATE policy requiring the writer's ownership lets another user move", async () => {
    const storage = alice.client.storage.from("shared");
    expect((await storage.upload("a/by-alice.txt", bytes("x"), { contentType: "text/plain" })).error).toBeNull();
    const moved = await bob.client.storage.from("shared").move("a/by-alice.txt", "a/moved-by-bob.txt");
    expect(moved.error).toBeNull();
    expect(await row("shared", "a/moved-by-bob.txt")).toMatchObject({ owner: bob.id, owner_id: bob.id });
    expect(await row("shared", "a/by-alice.txt")).toBeUndefined();
    expect(await (await storage.download("a/moved-by-bob.txt")).data?.text()).toBe("x");
  });

  it("keeps the owner when the token has no subject (service role)", async () => {
    const storage = alice.client.storage.from("shared");
    await storage.upload("a/service.txt", bytes("x"), { contentType: "text/plain" });
    const service = clientFor(stack, stack.serviceRoleKey);
    expect((await service.storage.from("shared").move("a/service.txt", "a/service-moved.txt")).error).toBeNull();
    expect(await row("shared", "a/service-moved.txt")).toMatchObject({ owner: alice.id, owner_id: alice.id });
  });
});

describe("copy", () => {
  function copy(token: string, body: Record<string, unknown>, headers: Record<string, string> = {}) {
    return fetch(`${stack.url}/storage/v1/object/copy`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json", ...headers },
      body: JSON.stringify({ bucketId: "shared", ...body }),
    });
  }

  beforeAll(async () => {
    const { error } = await alice.client.storage
      .from("shared")
      .upload("c/source.txt", bytes("# notes"), { contentType: "text/plain", metadata: { from: "alice" } });
    expect(error).toBeNull();
  });

  it("with copyMetadata false takes the request's mimetype and x-metadata, keeping the rest of the source's", async () => {
    const response = await copy(
      bob.token,
      {
        sourceKey: "c/source.txt",
        destinationKey: "c/as-markdown.md",
        copyMetadata: false,
        metadata: { mimetype: "text/markdown" },
      },
      { "x-metadata": base64({ by: "bob" }) },
    );
    expect(response.status).toBe(200);
    const copied = await row("shared", "c/as-markdown.md");
    expect(copied).toMatchObject({ owner: bob.id, user_metadata: { by: "bob" } });
    expect(copied?.metadata).toMatchObject({ mimetype: "text/markdown", cacheControl: "max-age=3600", size: 7 });
    const download = await bob.client.storage.from("shared").download("c/as-markdown.md");
    expect(download.data?.type).toBe("text/markdown");
  });

  it("ignores the request's metadata while copyMetadata is true (the default)", async () => {
    const response = await copy(bob.token, {
      sourceKey: "c/source.txt",
      destinationKey: "c/same-type.txt",
      metadata: { mimetype: "text/markdown", cacheControl: "max-age=1" },
    });
    expect(response.status).toBe(200);
    const copied = await row("shared", "c/same-type.txt");
    expect(copied?.metadata).toMatchObject({ mimetype: "text/plain", cacheControl: "max-age=3600" });
    expect(copied?.user_metadata).toEqual({ from: "alice" });
  });

  it("lets the INSERT policy see the type the copy declares", async () => {
    const response = await copy(bob.token, {
      sourceKey: "c/source.txt",
      destinationKey: "c/refused.bin",
      copyMetadata: false,
      metadata: { mimetype: "application/x-refused" },
    });
    expect(await response.json()).toMatchObject({ statusCode: "403" });
    expect(await row("shared", "c/refused.bin")).toBeUndefined();
  });

  it("refuses a copyMetadata that is not a boolean", async () => {
    const response = await copy(bob.token, {
      sourceKey: "c/source.txt",
      destinationKey: "c/bad.txt",
      copyMetadata: "no",
    });
    expect(await response.json()).toMatchObject({ statusCode: "400" });
    expect(await row("shared", "c/bad.txt")).toBeUndefined();
  });
});

describe("declared types against allowed_mime_types", () => {
  const put = (name: string, type: string) =>
    upload("typed", name, alice.token, { body: bytes("x"), headers: { "content-type": type } });

  it("compares the raw Content-Type as written: parameters and case count", async () => {
    for (const type of ["text/plain; charset=utf-8", "text/plain;charset=UTF-8", "Text/Plain", "IMAGE/png", "text"]) {
      const response = await put(`t/${encodeURIComponent(type)}.txt`, type);
      expect(await response.json(), type).toMatchObject({
        statusCode: "415",
        error: "invalid_mime_type",
        message: `mime type ${type} is not supported`,
      });
    }
    expect(await stack.stack.db.query("select 1 from storage.objects where bucket_id = 'typed'")).toHaveLength(0);
  });

  it("takes an exact match, an allowed type written with parameters, and any subtype of a type/*", async () => {
    for (const type of ["text/plain", "text/csv; charset=utf-8", "image/png", "image/x-anything"]) {
      const response = await put(`ok/${encodeURIComponent(type)}`, type);
      expect(response.status, type).toBe(200);
    }
  });

  it("reads a multipart file's type as Storage's parser gives it: lowercased, without parameters", async () => {
    const form = new FormData();
    form.append("", new Blob([bytes("x")], { type: "Text/Plain; charset=utf-8" }), "f.txt");
    const response = await upload("typed", "ok/form.txt", alice.token, { body: form });
    expect(response.status).toBe(200);
    expect((await row("typed", "ok/form.txt"))?.metadata).toMatchObject({ mimetype: "text/plain" });
  });
});
