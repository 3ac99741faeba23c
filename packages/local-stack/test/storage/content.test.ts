import { beforeAll, describe, expect, it } from "vitest";
import { stackPerFile } from "../support/stack.js";
import { bytes, png, userClient } from "./helpers.js";

// Strict mode's content checks; hosted-content.test.ts pins the default, hosted behaviour.
const stack = stackPerFile({ strict: true });
let alice: Awaited<ReturnType<typeof userClient>>;

beforeAll(async () => {
  alice = await userClient(stack);
});

const sandbox = "default-src 'none'; style-src 'unsafe-inline'; sandbox";

function expectProtected(response: Response) {
  expect(response.headers.get("x-content-type-options")).toBe("nosniff");
  expect(response.headers.get("content-security-policy")).toBe(sandbox);
}

/** An upload exactly as a script would send it, without any client-side checks. */
function rawUpload(path: string, body: Uint8Array | string, contentType: string) {
  return fetch(`${stack.url}/storage/v1/object/documents/${path}`, {
    method: "POST",
    headers: { apikey: stack.anonKey, authorization: `Bearer ${alice.token}`, "content-type": contentType },
    body: typeof body === "string" ? body : new Blob([new Uint8Array(body)]),
  });
}

const hostileSvg = `<?xml version="1.0"?>
<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="10" height="10" onload="alert(1)">
  <script>alert(2)</script>
  <style>@import url(https://evil.test/x.css);</style>
  <circle cx="5" cy="5" r="4" fill="red" onclick="alert(3)" style="fill:url(https://evil.test/p)"/>
  <a href="javascript:alert(4)"><text x="1" y="9">hi</text></a>
  <use xlink:href="https://evil.test/sprite.svg#x"/>
  <use href="#local"/>
  <foreignObject><body xmlns="http://www.w3.org/1999/xhtml" onload="alert(5)">html</body></foreignObject>
</svg>`;

describe("strict mode: active content in uploads", () => {
  it("stores an SVG reduced to drawing: no script, handlers, styles or outside links", async () => {
    const path = `${alice.id}/hostile.svg`;
    const response = await rawUpload(path, hostileSvg, "image/svg+xml");
    expect(response.status).toBe(200);

    const served = await fetch(`${stack.url}/storage/v1/object/authenticated/documents/${path}`, {
      headers: { apikey: stack.anonKey, authorization: `Bearer ${alice.token}` },
    });
    expect(served.headers.get("content-type")).toBe("image/svg+xml");
    expectProtected(served);
    const text = await served.text();
    expect(text).toMatch(/^<svg[^>]*xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    expect(text).toContain("<circle");
    expect(text).toContain('href="#local"');
    expect(text).toContain(">hi</text>");
    for (const active of [
      "script",
      "alert",
      "onload",
      "onclick",
      "style",
      "evil.test",
      "javascript:",
      "foreignObject",
    ]) {
      expect(text).not.toContain(active);
    }
    const info = await alice.client.storage.from("documents").info(path);
    expect(info.data?.size).toBe(new TextEncoder().encode(text).byteLength);
  });

  it("refuses HTML labelled as an image, and a non-SVG labelled SVG, with InvalidMimeType", async () => {
    const html = "<html><body><script>alert(document.cookie)</script></body></html>";
    const { error } = await alice.client.storage
      .from("documents")
      .upload(`${alice.id}/fake.png`, bytes(html), { contentType: "image/png" });
    expect(error).toMatchObject({ status: 400, statusCode: "415" });
    expect(error?.message).toBe("mime type image/png does not match the file's content");

    const raw = await rawUpload(`${alice.id}/fake.svg`, html, "image/svg+xml");
    expect(raw.status).toBe(400);
    expect(await raw.json()).toEqual({
      statusCode: "415",
      code: "InvalidMimeType",
      error: "invalid_mime_type",
      message: "mime type image/svg+xml does not match the file's content",
    });
    const listed = await alice.client.storage.from("documents").list(alice.id, { search: "fake" });
    expect(listed.data).toEqual([]);
  });

  it("accepts each image and audio type by its leading bytes and refuses one type's bytes as another", async () => {
    const samples: Array<[string, Uint8Array]> = [
      ["image/png", png("x")],
      ["image/jpeg", new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 0x10])],
      ["image/gif", bytes("GIF89a\u0001\u0000")],
      ["image/webp", bytes("RIFF\u0000\u0000\u0000\u0000WEBPVP8 ")],
      ["audio/mpeg", bytes("ID3\u0004\u0000")],
      ["audio/mpeg", new Uint8Array([0xff, 0xfb, 0x90, 0x00])],
      ["audio/ogg", bytes("OggS\u0000\u0002")],
      ["audio/mp4", bytes("\u0000\u0000\u0000\u0020ftypM4A ")],
      ["audio/wav", bytes("RIFF\u0000\u0000\u0000\u0000WAVEfmt ")],
    ];
    for (const [index, [type, body]] of samples.entries()) {
      const { error } = await alice.client.storage
        .from("documents")
        .upload(`${alice.id}/media/${index}`, body, { contentType: type });
      expect({ type, error }).toEqual({ type, error: null });
    }
    const jpegAsPng = await alice.client.storage
      .from("documents")
      .upload(`${alice.id}/media/wrong`, samples[1]?.[1] as Uint8Array, { contentType: "image/png" });
    expect(jpegAsPng.error).toMatchObject({ statusCode: "415" });
    const wavAsWebp = await alice.client.storage
      .from("documents")
      .upload(`${alice.id}/media/wrong`, samples[8]?.[1] as Uint8Array, { contentType: "image/webp" });
    expect(wavAsWebp.error).toMatchObject({ statusCode: "415" });
  });

  it("serves every user file with nosniff and a sandboxing policy: authenticated, public and signed", async () => {
    const html = "<html><body><script>alert(1)</script></body></html>";
    const privatePath = `${alice.id}/page.html`;
    expect(
      (await alice.client.storage.from("documents").upload(privatePath, bytes(html), { contentType: "text/html" }))
        .error,
    ).toBeNull();
    const publicPath = `${alice.id}/page.html`;
    expect(
      (await alice.client.storage.from("avatars").upload(publicPath, bytes(html), { contentType: "text/html" })).error,
    ).toBeNull();

    const authenticated = await fetch(`${stack.url}/storage/v1/object/authenticated/documents/${privatePath}`, {
      headers: { apikey: stack.anonKey, authorization: `Bearer ${alice.token}` },
    });
    const publicUrl = alice.client.storage.from("avatars").getPublicUrl(publicPath).data.publicUrl;
    const publicResponse = await fetch(publicUrl);
    const signed = await alice.client.storage.from("documents").createSignedUrl(privatePath, 60);
    const signedResponse = await fetch(signed.data?.signedUrl ?? "");
    const ranged = await fetch(publicUrl, { headers: { range: "bytes=0-3" } });
    for (const response of [authenticated, publicResponse, signedResponse]) {
      expect(response.status).toBe(200);
      // As hosted Storage, HTML is served as plain text.
      expect(response.headers.get("content-type")).toBe("text/plain");
      expectProtected(response);
      expect(await response.text()).toBe(html);
    }
    expect(ranged.status).toBe(206);
    expectProtected(ranged);
  });
});
