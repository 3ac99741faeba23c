// @vitest-environment jsdom
import { act } from "react";
import { createRoot, type Root } from "react-dom/client";
import { afterEach, describe, expect, test, vi } from "vitest";
import { ScreenErrorBoundary } from "./screen-error-boundary.js";

declare global {
  var IS_REACT_ACT_ENVIRONMENT: boolean;
}
globalThis.IS_REACT_ACT_ENVIRONMENT = true;

let root: Root | undefined;
afterEach(() => {
  act(() => root?.unmount());
  root = undefined;
});

let broken = true;
function Screen() {
  if (broken) throw new Error("chunk failed to load");
  return <h1>Decks</h1>;
}

describe("ScreenErrorBoundary", () => {
  test("a screen that throws leaves a message and Reload; the next address gets its chance", () => {
    const quiet = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const container = document.createElement("div");
    root = createRoot(container);
    const at = (place: string) =>
      act(() =>
        root?.render(
          <ScreenErrorBoundary place={place}>
            <Screen />
          </ScreenErrorBoundary>,
        ),
      );
    try {
      broken = true;
      at("/stats");
      expect(container.querySelector("[role=alert] h1")?.textContent).toBe("This screen could not be shown");
      expect(container.querySelector("button")?.textContent).toBe("Reload");

      // The same address keeps the message; another one renders its screen again.
      broken = false;
      at("/stats");
      expect(container.querySelector("[role=alert]")).not.toBeNull();
      at("/decks");
      expect(container.querySelector("[role=alert]")).toBeNull();
      expect(container.querySelector("h1")?.textContent).toBe("Decks");
    } finally {
      quiet.mockRestore();
    }
  });
});
