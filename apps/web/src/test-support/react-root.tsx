/** Rendering React in a jsdom unit test: a fresh root in the document, unmounted after each test. */
import { act, type ReactNode } from "react";
import { createRoot, type Root } from "react-dom/client";
import { afterEach } from "vitest";

declare global {
  var IS_REACT_ACT_ENVIRONMENT: boolean;
}
globalThis.IS_REACT_ACT_ENVIRONMENT = true;

const mounted: { root: Root; container: HTMLElement }[] = [];

afterEach(() => {
  for (const { root, container } of mounted.splice(0)) {
    act(() => root.unmount());
    container.remove();
  }
});

/**
 * Renders `element`, waiting for what it suspends on that is already on its
 * way; `rerender` renders the same root again with another element.
 */
export async function mount(element: ReactNode) {
  const container = document.body.appendChild(document.createElement("div"));
  const root = createRoot(container);
  mounted.push({ root, container });
  await act(async () => root.render(element));
  return { container, rerender: (next: ReactNode) => act(async () => root.render(next)) };
}
