import { beforeAll, describe, expect, it } from "vitest";
import { clientFor, stackPerFile } from "../support/stack.js";
import { bytes } from "./helpers.js";

// The default mode: uploads and served files as hosted Storage handles them.
const stack = stackPerFile();
let admin: ReturnType<typeof clientFor>;

beforeAll(async () => {
  admin = clientFor(stack, stack.serviceRoleKey);
  const { error } = await admin.storage.createBucket("pictures", {
    public: true,
    allowedMimeTypes: ["image/svg+xml", "image/png", "text/html"],
  });
  expect(error).toBeNull();
});

const scriptedSvg = `<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><script>alert(2)</script><circle r="4"/></svg>`;

async function servedPublicly(path: string) {
  return fetch(admin.storage.from("pictures").getPublicUrl(path).data.publicUrl);
}

describe("uploads and served files as hosted Storage", () => {
  it("stores an SVG with a script exactly as given when the bucket allows its declared type", async () => {
    const { error } = await admin.storage
      .from("pictures")
      .upload("scripted.svg", bytes(scriptedSvg), { contentType: "image/svg+xml" });
    expect(error).toBeNull();

    const served = await servedPublicly("scripted.svg");
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("image/svg+xml");
    expect(await served.text()).toBe(scriptedSvg);
  });

  it("does not look at the bytes: HTML declared as a PNG is stored and served as a PNG", async () => {
    const html = "<html><body><script>alert(document.cookie)</script></body></html>";
    const { error } = await admin.storage
      .from("pictures")
      .upload("page.png", bytes(html), { contentType: "image/png" });
    expect(error).toBeNull();

    const served = await servedPublicly("page.png");
    expect(served.headers.get("content-type")).toBe("image/png");
    expect(await served.text()).toBe(html);
  });

  it("serves Storage's headers: HTML as plain text, X-Robots-Tag none, no nosniff or sandbox policy", async () => {
    const html = "<p>hello</p>";
    const upload = await admin.storage.from("pictures").upload("page.html", bytes(html), { contentType: "text/html" });
    expect(upload.error).toBeNull();
    const info = await admin.storage.from("pictures").info("page.html");
    expect(info.data?.contentType).toBe("text/html");

    const signed = await admin.storage.from("pictures").createSignedUrl("page.html", 60);
    for (const served of [await servedPublicly("page.html"), await fetch(signed.data?.signedUrl ?? "")]) {
      expect(served.status).toBe(200);
      expect(served.headers.get("content-type")).toBe("text/plain");
      expect(served.headers.get("x-robots-tag")).toBe("none");
      expect(served.headers.get("x-content-type-options")).toBeNull();
      expect(served.headers.get("content-security-policy")).toBeNull();
      expect(await served.text()).toBe(html);
    }
  });
});
