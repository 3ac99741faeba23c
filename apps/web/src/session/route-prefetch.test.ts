// @vitest-environment jsdom
import type { Engram } from "@engram/sdk";
import { QueryClient } from "@tanstack/react-query";
import { afterEach, describe, expect, test, vi } from "vitest";
import { type Prefetch, prefetching } from "./route-prefetch.js";

/** Stands in for the SDK: the loader only hands it on. */
const engram = { name: "the SDK" } as unknown as Engram;
const queryClient = new QueryClient();

function enter(url: string, prefetch: ReturnType<typeof prefetching>) {
  return prefetch(new URL(url).searchParams);
}

afterEach(() => {
  document.cookie = "sb-engram-auth-token=; max-age=0";
});

describe("prefetching", () => {
  test("with a stored session, hands the screen's prefetch the cache, the SDK and the URL's search params", async () => {
    document.cookie = "sb-engram-auth-token=base64-abc";
    let called: (args: Parameters<Prefetch>) => void = () => undefined;
    const seen = new Promise<Parameters<Prefetch>>((resolve) => {
      called = resolve;
    });
    const prefetch = prefetching(
      { queryClient, loadEngram: async () => engram },
      async () => ({ prefetch: ((...args) => called(args)) as Prefetch }),
      (screen) => screen.prefetch,
    );
    // It holds nothing up: the route renders while the requests start.
    expect(enter("http://app.test/stats?deck=d1&period=90", prefetch)).toBeUndefined();
    const [client, sdk, searchParams] = await seen;
    expect(client).toBe(queryClient);
    expect(sdk).toBe(engram);
    expect(Object.fromEntries(searchParams)).toEqual({ deck: "d1", period: "90" });
  });

  test("without a stored session loads nothing: the visitor is on the way to sign in", async () => {
    const loadEngram = vi.fn(async () => engram);
    const load = vi.fn(async () => ({ prefetch: (() => undefined) as Prefetch }));
    expect(
      enter(
        "http://app.test/stats",
        prefetching({ queryClient, loadEngram }, load, (m) => m.prefetch),
      ),
    ).toBeUndefined();
    expect(loadEngram).not.toHaveBeenCalled();
    expect(load).not.toHaveBeenCalled();
  });

  test("a chunk that fails to load is left to the route, which reports it; the prefetch rejects nothing", async () => {
    document.cookie = "sb-engram-auth-token=base64-abc";
    const failed = Promise.reject(new Error("chunk failed"));
    const prefetch = vi.fn();
    const unhandled = vi.fn();
    process.on("unhandledRejection", unhandled);
    try {
      expect(
        enter(
          "http://app.test/stats",
          prefetching(
            { queryClient, loadEngram: async () => engram },
            () => failed,
            () => prefetch,
          ),
        ),
      ).toBeUndefined();
      await failed.catch(() => undefined);
      // Two macrotask turns: long enough for Node to report an unhandled rejection.
      await new Promise((resolve) => setTimeout(resolve, 0));
      await new Promise((resolve) => setTimeout(resolve, 0));
    } finally {
      process.off("unhandledRejection", unhandled);
    }
    expect(prefetch).not.toHaveBeenCalled();
    expect(unhandled).not.toHaveBeenCalled();
  });
});
