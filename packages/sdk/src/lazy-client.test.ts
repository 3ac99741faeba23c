import { describe, expect, test } from "vitest";
import { EngramError } from "./errors.js";
import { lazyClient } from "./lazy-client.js";

function counter() {
  let count = 0;
  return {
    async add(by: number): Promise<number> {
      count += by;
      return count;
    },
    async total(): Promise<number> {
      return count;
    },
  };
}

describe("lazyClient", () => {
  test("loads the client once, with the first call, and passes every call through", async () => {
    let loads = 0;
    const client = lazyClient(
      async () => {
        loads += 1;
        return counter();
      },
      { add: true, total: true },
    );
    expect(loads).toBe(0);
    expect(await Promise.all([client.add(2), client.add(3)])).toEqual([2, 5]);
    expect(await client.total()).toBe(5);
    expect(loads).toBe(1);
  });

  test("rejects a call whose load failed with a network EngramError, and loads again on the next call", async () => {
    let loads = 0;
    const client = lazyClient(
      async () => {
        loads += 1;
        if (loads === 1) throw new TypeError("Failed to fetch dynamically imported module: /assets/notes.js");
        return counter();
      },
      { add: true, total: true },
    );
    const failed = await client.add(1).catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(EngramError);
    expect((failed as EngramError).code).toBe("network");
    expect(await client.add(1)).toBe(1);
    expect(loads).toBe(2);
  });

  test("keeps a method's own rejection as it is", async () => {
    const client = lazyClient(
      async () => ({
        async fail(): Promise<never> {
          throw new EngramError("not-found", "No such note.");
        },
      }),
      { fail: true },
    );
    await expect(client.fail()).rejects.toMatchObject({ code: "not-found" });
  });
});
