import { describe, expect, it } from "vitest";
import { readConfig } from "../config/config.js";
import { isRedirectAllowed, redirectTarget } from "./redirects.js";

const auth = {
  ...readConfig("").auth,
  siteUrl: "http://127.0.0.1:3000",
  additionalRedirectUrls: ["https://app.example.com/**", "https://*.preview.example.com/callback"],
};

describe("redirect allow-list", () => {
  it("allows the site URL's origin and any loopback address", () => {
    expect(isRedirectAllowed(auth, "http://127.0.0.1:3000/welcome")).toBe(true);
    expect(isRedirectAllowed(auth, "http://127.0.0.1:5173/other-port")).toBe(true);
  });

  it("matches additional_redirect_urls as globs: ** crosses segments, * does not", () => {
    expect(isRedirectAllowed(auth, "https://app.example.com/auth/callback?next=/decks")).toBe(true);
    expect(isRedirectAllowed(auth, "https://pr-12.preview.example.com/callback")).toBe(true);
    expect(isRedirectAllowed(auth, "https://a.b.preview.example.com/callback")).toBe(false);
  });

  it("falls back to the site URL for anything else", () => {
    expect(redirectTarget(auth, "https://evil.example/steal")).toBe("http://127.0.0.1:3000");
    expect(redirectTarget(auth, "not a url")).toBe("http://127.0.0.1:3000");
    expect(redirectTarget(auth, undefined)).toBe("http://127.0.0.1:3000");
  });
});
