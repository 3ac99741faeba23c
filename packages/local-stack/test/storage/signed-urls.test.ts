import { beforeAll, describe, expect, it } from "vitest";
import { clientFor, stackPerFile } from "../support/stack.js";
import { bytes, userClient } from "./helpers.js";

const stack = stackPerFile();
let alice: Awaited<ReturnType<typeof userClient>>;
let bob: Awaited<ReturnType<typeof userClient>>;

beforeAll(async () => {
  alice = await userClient(stack);
  bob = await userClient(stack);
  await alice.client.storage.from("documents").upload(`${alice.id}/report.pdf`, bytes("%PDF"), {
    contentType: "application/pdf",
  });
  await alice.client.storage.from("documents").upload(`${alice.id}/with space.txt`, bytes("spaced"));
});

describe("signed download URLs", () => {
  it("creates a URL anyone can open until it expires", async () => {
    const { data, error } = await alice.client.storage.from("documents").createSignedUrl(`${alice.id}/report.pdf`, 60);
    expect(error).toBeNull();
    expect(data?.signedUrl).toMatch(
      new RegExp(`^${stack.url}/storage/v1/object/sign/documents/${alice.id}/report.pdf\\?token=`),
    );
    const response = await fetch(data?.signedUrl ?? "");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/pdf");
    expect(await response.text()).toBe("%PDF");
  });

  it("encodes paths with spaces", async () => {
    const { data } = await alice.client.storage.from("documents").createSignedUrl(`${alice.id}/with space.txt`, 60);
    expect(await (await fetch(data?.signedUrl ?? "")).text()).toBe("spaced");
  });

  it("adds a download disposition when asked", async () => {
    const { data } = await alice.client.storage
      .from("documents")
      .createSignedUrl(`${alice.id}/report.pdf`, 60, { download: "mine.pdf" });
    const response = await fetch(data?.signedUrl ?? "");
    expect(response.headers.get("content-disposition")).toBe(
      "attachment; filename=mine.pdf; filename*=UTF-8''mine.pdf",
    );
    const plain = await alice.client.storage
      .from("documents")
      .createSignedUrl(`${alice.id}/report.pdf`, 60, { download: true });
    expect((await fetch(plain.data?.signedUrl ?? "")).headers.get("content-disposition")).toBe("attachment;");
  });

  it("refuses to sign what the caller cannot read", async () => {
    const { error } = await bob.client.storage.from("documents").createSignedUrl(`${alice.id}/report.pdf`, 60);
    expect(error).toMatchObject({ status: 400, statusCode: "404" });
  });

  it("rejects an expired token, a token for another path and a forged token", async () => {
    const base = `${stack.url}/storage/v1/object/sign/documents/${alice.id}/report.pdf`;
    const now = Math.floor(Date.now() / 1000);
    const expired = await stack.stack.keys.sign({
      url: `documents/${alice.id}/report.pdf`,
      iat: now - 600,
      exp: now - 300,
    });
    const expiredResponse = await fetch(`${base}?token=${expired}`);
    expect(expiredResponse.status).toBe(400);
    expect(await expiredResponse.json()).toMatchObject({
      statusCode: "400",
      error: "InvalidJWT",
      message: "jwt expired",
    });

    const other = await stack.stack.keys.sign({ url: `documents/${alice.id}/with space.txt`, iat: now, exp: now + 60 });
    const otherResponse = await fetch(`${base}?token=${other}`);
    expect(otherResponse.status).toBe(400);
    expect(await otherResponse.json()).toMatchObject({ code: "InvalidSignature" });

    const forged = await fetch(`${base}?token=eyJhbGciOiJIUzI1NiJ9.eyJ1cmwiOiJ4In0.bad`);
    expect(forged.status).toBe(400);
    expect(await forged.json()).toMatchObject({ statusCode: "400", code: "InvalidJWT", message: "invalid signature" });
    const malformed = await fetch(`${base}?token=not-a-jwt`);
    expect(await malformed.json()).toMatchObject({ statusCode: "400", code: "InvalidJWT", message: "jwt malformed" });
    expect((await fetch(base)).status).toBe(400);
  });

  it("signs many paths, reporting the ones the caller cannot read", async () => {
    const paths = [`${alice.id}/report.pdf`, `${alice.id}/missing.pdf`];
    const { data, error } = await alice.client.storage.from("documents").createSignedUrls(paths, 60);
    expect(error).toBeNull();
    expect(data?.[0]).toMatchObject({ path: paths[0], error: null });
    expect(await (await fetch(data?.[0]?.signedUrl ?? "")).text()).toBe("%PDF");
    expect(data?.[1]).toMatchObject({
      path: paths[1],
      signedUrl: null,
      error: "Either the object does not exist or you do not have access to it",
    });
    const forBob = await bob.client.storage.from("documents").createSignedUrls(paths, 60);
    expect(forBob.data?.every((entry) => entry.signedUrl === null)).toBe(true);
  });
});

describe("signed upload URLs", () => {
  it("creates an upload URL the holder can upload to once", async () => {
    const path = `${alice.id}/uploaded.txt`;
    const { data, error } = await alice.client.storage.from("documents").createSignedUploadUrl(path);
    expect(error).toBeNull();
    expect(data?.path).toBe(path);
    expect(data?.signedUrl).toContain(`/storage/v1/object/upload/sign/documents/${path}?token=`);

    const anyone = clientFor(stack);
    const upload = await anyone.storage
      .from("documents")
      .uploadToSignedUrl(path, data?.token ?? "", bytes("via token"), { contentType: "text/plain" });
    expect(upload.error).toBeNull();
    expect(upload.data?.fullPath).toBe(`documents/${path}`);
    expect(await (await alice.client.storage.from("documents").download(path)).data?.text()).toBe("via token");
    const [row] = await stack.stack.db.query<{ owner: string }>(
      "select owner::text from storage.objects where bucket_id = 'documents' and name = $1",
      [path],
    );
    expect(row?.owner).toBe(alice.id);

    const again = await anyone.storage.from("documents").uploadToSignedUrl(path, data?.token ?? "", bytes("twice"));
    expect(again.error).toMatchObject({ statusCode: "409" });
  });

  it("lets an upsert token replace the object", async () => {
    const path = `${alice.id}/uploaded-upsert.txt`;
    await alice.client.storage.from("documents").upload(path, bytes("old"));
    const { data } = await alice.client.storage.from("documents").createSignedUploadUrl(path, { upsert: true });
    const upload = await clientFor(stack)
      .storage.from("documents")
      .uploadToSignedUrl(path, data?.token ?? "", new Blob([bytes("new")], { type: "text/plain" }));
    expect(upload.error).toBeNull();
    expect(await (await alice.client.storage.from("documents").download(path)).data?.text()).toBe("new");
  });

  it("refuses an upload URL where the caller may not insert", async () => {
    const { error } = await bob.client.storage.from("documents").createSignedUploadUrl(`${alice.id}/nope.txt`);
    expect(error).toMatchObject({ statusCode: "403" });
    const count = await stack.stack.db.query("select 1 from storage.objects where name = $1", [`${alice.id}/nope.txt`]);
    expect(count).toHaveLength(0);
  });

  it("refuses a token used for another path", async () => {
    const { data } = await alice.client.storage.from("documents").createSignedUploadUrl(`${alice.id}/a.txt`);
    const { error } = await clientFor(stack)
      .storage.from("documents")
      .uploadToSignedUrl(`${alice.id}/b.txt`, data?.token ?? "", bytes("x"));
    expect(error).toMatchObject({ status: 400, statusCode: "400" });
  });
});
