// @vitest-environment jsdom
import { act, type ReactNode, Suspense } from "react";
import { describe, expect, test } from "vitest";
import { mount } from "../test-support/react-root.js";
import { preloadable } from "./preloadable.js";

function Greeting({ name }: { name: string }) {
  return <p>Hello {name}</p>;
}

/** Renders `element` under a Suspense boundary whose fallback says "Loading"; returns the container. */
async function render(element: ReactNode) {
  return (await mount(<Suspense fallback={<p>Loading</p>}>{element}</Suspense>)).container;
}

describe("preloadable", () => {
  test("preloaded code renders at once, with its props, and is loaded only once", async () => {
    let loads = 0;
    const Lazy = preloadable(async () => {
      loads += 1;
      return Greeting;
    });
    await Lazy.preload();
    await Lazy.preload();
    const container = await render(<Lazy name="Ada" />);
    // No fallback was ever shown: the first render already has the content.
    expect(container.textContent).toBe("Hello Ada");
    expect(loads).toBe(1);
  });

  test("code not there yet suspends until it arrives", async () => {
    let arrive: (component: typeof Greeting) => void = () => undefined;
    const Lazy = preloadable(() => new Promise<typeof Greeting>((resolve) => (arrive = resolve)));
    const container = await render(<Lazy name="Grace" />);
    expect(container.textContent).toBe("Loading");
    await act(async () => arrive(Greeting));
    // React reveals the content on its own schedule (it holds reveals back after a fallback): wait for it.
    for (let turn = 0; turn < 500 && container.textContent !== "Hello Grace"; turn += 1) {
      await act(() => new Promise((resolve) => setTimeout(resolve, 10)));
    }
    expect(container.textContent).toBe("Hello Grace");
  });

  test("a failed load is tried again on the next preload", async () => {
    let attempt = 0;
    const Lazy = preloadable(async () => {
      attempt += 1;
      if (attempt === 1) throw new Error("offline");
      return Greeting;
    });
    await expect(Lazy.preload()).rejects.toThrow("offline");
    await Lazy.preload();
    expect((await render(<Lazy name="Linus" />)).textContent).toBe("Hello Linus");
    expect(attempt).toBe(2);
  });
});
