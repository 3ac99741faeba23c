// @vitest-environment jsdom
import { act, Component, type ReactNode, Suspense } from "react";
import { describe, expect, test } from "vitest";
import { mount } from "../test-support/react-root.js";
import { onDemand, preloadable } from "./preloadable.js";

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

class CatchError extends Component<{ children: ReactNode }, { error?: Error }> {
  override state: { error?: Error } = {};
  static getDerivedStateFromError(error: Error) {
    return { error };
  }
  override render() {
    return this.state.error ? <p>Failed: {this.state.error.message}</p> : this.props.children;
  }
}

describe("onDemand", () => {
  test("shows what it is given while the code loads, then the component, without suspending", async () => {
    let arrive: (component: typeof Greeting) => void = () => undefined;
    const OnDemand = onDemand(
      () => new Promise<typeof Greeting>((resolve) => (arrive = resolve)),
      ({ name }) => <p>Opening for {name}</p>,
    );
    const container = await render(<OnDemand name="Ada" />);
    // The Suspense fallback ("Loading") never shows.
    expect(container.textContent).toBe("Opening for Ada");
    await act(async () => arrive(Greeting));
    // In the same turn: nothing suspended, so React has no reveal to hold back.
    expect(container.textContent).toBe("Hello Ada");
  });

  test("loaded code renders on the first render; preload loads it once", async () => {
    let loads = 0;
    const OnDemand = onDemand(async () => {
      loads += 1;
      return Greeting;
    });
    await Promise.all([OnDemand.preload(), OnDemand.preload()]);
    expect((await render(<OnDemand name="Grace" />)).textContent).toBe("Hello Grace");
    expect(loads).toBe(1);
  });

  test("a failed load reaches the error boundary", async () => {
    const OnDemand = onDemand<{ name: string }>(() => Promise.reject(new Error("offline")));
    const { container } = await mount(
      <CatchError>
        <OnDemand name="Linus" />
      </CatchError>,
    );
    await act(async () => undefined);
    expect(container.textContent).toBe("Failed: offline");
  });
});
