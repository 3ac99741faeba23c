import { StorageClient } from "@supabase/storage-js";
import { beforeAll, describe, expect, it } from "vitest";
import { publishableKey, secretKey } from "../../src/keys/api-keys.js";
import { newUser, stackPerFile } from "../support/stack.js";
import { bytes } from "./helpers.js";

// Storage behind Supabase's gateway has no API key check: a server (or storage-js
// on its own) sends only `Authorization: Bearer <JWT or key>`, and Storage checks it.

const stack = stackPerFile();
let user: { id: string; token: string };

/** storage-js as an app creates it without supabase-js: an Authorization header and no apikey. */
const storageAs = (token: string | null) =>
  new StorageClient(`${stack.url}/storage/v1`, token === null ? {} : { Authorization: `Bearer ${token}` });

beforeAll(async () => {
  user = await newUser(stack);
});

describe("a bearer without an apikey", () => {
  it("acts as the user whose access token it carries", async () => {
    const storage = storageAs(user.token).from("documents");
    const path = `${user.id}/bearer-only.txt`;
    const upload = await storage.upload(path, bytes("mine"), { contentType: "text/plain" });
    expect(upload.error).toBeNull();
    const download = await storage.download(path);
    expect(await download.data?.text()).toBe("mine");
    const { data: listed } = await storage.list(user.id);
    expect(listed?.map((item) => item.name)).toContain("bearer-only.txt");
    const [row] = await stack.stack.db.query<{ owner_id: string }>(
      "select owner_id from storage.objects where bucket_id = 'documents' and name = $1",
      [path],
    );
    expect(row?.owner_id).toBe(user.id);
  });

  it("acts as service_role with the service_role key or the secret key", async () => {
    for (const key of [stack.serviceRoleKey, secretKey]) {
      const { data, error } = await storageAs(key).getBucket("documents");
      expect(error).toBeNull();
      expect(data).toMatchObject({ id: "documents", public: false });
    }
    const created = await storageAs(secretKey).createBucket("made-with-secret-key");
    expect(created).toEqual({ data: { name: "made-with-secret-key" }, error: null });
  });

  it("acts as anon with the anon key or the publishable key", async () => {
    for (const key of [stack.anonKey, publishableKey]) {
      const storage = storageAs(key).from("documents");
      const { error } = await storage.upload(`${user.id}/as-anon.txt`, bytes("x"));
      expect(error).toMatchObject({
        status: 400,
        statusCode: "403",
        message: "new row violates row-level security policy",
      });
      // anon may list the public bucket (the fixture's policy), so the request itself is served.
      expect((await storageAs(key).from("avatars").list()).error).toBeNull();
    }
  });

  it("is refused as Storage refuses a missing, malformed or forged token", async () => {
    const cases: [string | null, string][] = [
      [null, "Invalid Compact JWS"],
      ["not-a-jwt", "jwt malformed"],
      [`${user.token.slice(0, -4)}AAAA`, "invalid signature"],
    ];
    for (const [token, message] of cases) {
      const { error } = await storageAs(token).listBuckets();
      expect(error).toMatchObject({ status: 400, statusCode: "403", message });
      expect((error as { code?: string } | null)?.code).toBe("AccessDenied");
    }
  });

  it("lets a download act as anon without a token, as Storage allows there", async () => {
    const { error } = await storageAs(null).from("avatars").download("nobody/missing.png");
    expect(error).toMatchObject({ status: 400, statusCode: "404" });
  });
});
