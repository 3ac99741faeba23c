// @vitest-environment jsdom
import { act } from "react";
import { afterEach, describe, expect, test } from "vitest";
import { mount } from "../test-support/react-root.js";
import { choiceField, textField, type UrlSchema, useUrlState } from "./use-url-state.js";

interface View {
  q: string;
  sort: "newest" | "oldest";
  period: 30 | 90;
}

const schema: UrlSchema<View> = {
  q: textField("q"),
  sort: choiceField("sort", ["newest", "oldest"] as const, "newest"),
  period: choiceField("period", [30, 90] as const, 30),
};

type Hook = ReturnType<typeof useUrlState<View>>;
/** What the screen's last render got from the hook. */
let hook: Hook | undefined;

function Screen() {
  hook = useUrlState(schema);
  return null;
}

afterEach(() => {
  hook = undefined;
});

/** Back in the browser's history: done once the browser says so with `popstate`. */
function back() {
  const moved = new Promise((resolve) => window.addEventListener("popstate", resolve, { once: true }));
  history.back();
  return moved;
}

/** Renders a screen using the hook at `url` (the page's own address); returns the hook's latest result. */
async function renderAt(url: string) {
  history.replaceState(null, "", url);
  await mount(<Screen />);
  return {
    search: () => window.location.search,
    values: () => (hook as Hook)[0],
    update: (...args: Parameters<Hook[1]>) => (hook as Hook)[1](...args),
  };
}

describe("useUrlState", () => {
  test("reads typed values from the URL", async () => {
    const screen = await renderAt("/?q=cat&sort=oldest&period=90");
    expect(screen.values()).toEqual({ q: "cat", sort: "oldest", period: 90 });
  });

  test("values it cannot read fall back to the defaults", async () => {
    const screen = await renderAt("/?sort=sideways&period=7");
    expect(screen.values()).toEqual({ q: "", sort: "newest", period: 30 });
  });

  test("defaults are left out of the URL", async () => {
    const screen = await renderAt("/?q=cat&sort=oldest&period=90");
    await act(async () => screen.update({ q: "", sort: "newest", period: 30 }));
    expect(screen.search()).toBe("");
    expect(screen.values()).toEqual({ q: "", sort: "newest", period: 30 });
  });

  test("two changes made before the router renders either both survive", async () => {
    const screen = await renderAt("/?q=cat");
    await act(async () => {
      screen.update({ q: "" }, { replace: true });
      screen.update({ sort: "oldest" }, { replace: true });
    });
    expect(new URLSearchParams(screen.search()).toString()).toBe("sort=oldest");
    expect(screen.values()).toEqual({ q: "", sort: "oldest", period: 30 });
  });

  test("a URL from outside, such as Back, is what the next change builds on", async () => {
    const screen = await renderAt("/?q=cat");
    await act(async () => screen.update({ period: 90 }));
    await act(async () => screen.update({ sort: "oldest" }));
    expect(new URLSearchParams(screen.search()).toString()).toBe("q=cat&period=90&sort=oldest");

    await act(back);
    expect(screen.values()).toEqual({ q: "cat", sort: "newest", period: 90 });
    await act(async () => screen.update({ q: "dog" }));
    expect(new URLSearchParams(screen.search()).toString()).toBe("q=dog&period=90");

    await act(async () => history.pushState(null, "", "/?sort=oldest"));
    await act(async () => screen.update({ period: 90 }));
    expect(new URLSearchParams(screen.search()).toString()).toBe("sort=oldest&period=90");
  });

  test("a change adds a history entry unless asked to replace it", async () => {
    const screen = await renderAt("/");
    await act(async () => screen.update({ q: "c" }, { replace: true }));
    await act(async () => screen.update({ period: 90 }));
    await act(back);
    expect(screen.values()).toEqual({ q: "c", sort: "newest", period: 30 });
  });
});
