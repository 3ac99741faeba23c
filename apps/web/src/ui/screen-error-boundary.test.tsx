// @vitest-environment jsdom
import { describe, expect, test, vi } from "vitest";
import { mount } from "../test-support/react-root.js";
import { ScreenErrorBoundary } from "./screen-error-boundary.js";

let broken = true;
function Screen() {
  if (broken) throw new Error("chunk failed to load");
  return <h1>Decks</h1>;
}

describe("ScreenErrorBoundary", () => {
  test("a screen that throws leaves a message and Reload; the next address gets its chance", async () => {
    const quiet = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const at = (place: string) => (
      <ScreenErrorBoundary place={place}>
        <Screen />
      </ScreenErrorBoundary>
    );
    try {
      broken = true;
      const { container, rerender } = await mount(at("/stats"));
      expect(container.querySelector("[role=alert] h1")?.textContent).toBe("This screen could not be shown");
      expect(container.querySelector("button")?.textContent).toBe("Reload");

      // The same address keeps the message; another one renders its screen again.
      broken = false;
      await rerender(at("/stats"));
      expect(container.querySelector("[role=alert]")).not.toBeNull();
      await rerender(at("/decks"));
      expect(container.querySelector("[role=alert]")).toBeNull();
      expect(container.querySelector("h1")?.textContent).toBe("Decks");
    } finally {
      quiet.mockRestore();
    }
  });
});
