import { describe, expect, it } from "vitest";
import { headerRecord } from "./headers.js";

function fromRaw(raw: string[]) {
  const headers = new Headers();
  for (let i = 0; i < raw.length; i += 2) headers.append(raw[i] as string, raw[i + 1] as string);
  return headers;
}

describe("headerRecord", () => {
  it("reads node's raw header list as iterating Headers would", () => {
    const raw = [
      "Host",
      "127.0.0.1:54321",
      "X-Custom",
      " padded ",
      "Accept",
      "application/json",
      "x-custom",
      "second",
      "Cookie",
      "a=1",
      "cookie",
      "b=2",
      "Authorization",
      "Bearer token",
    ];
    const record = headerRecord(fromRaw(raw), raw);
    expect(record).toEqual(Object.fromEntries(fromRaw(raw)));
    expect(Object.keys(record)).toEqual(["accept", "authorization", "cookie", "host", "x-custom"]);
    expect(record["x-custom"]).toBe("padded, second");
    expect(record.cookie).toBe("a=1; b=2");
  });

  it("iterates the Headers when there is no raw list", () => {
    const headers = new Headers({ Prefer: "return=minimal", apikey: "key" });
    expect(headerRecord(headers)).toEqual({ apikey: "key", prefer: "return=minimal" });
  });
});
