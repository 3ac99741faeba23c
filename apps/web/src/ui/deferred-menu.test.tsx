// @vitest-environment jsdom
import { act, Suspense } from "react";
import { describe, expect, test } from "vitest";
import { onDemand } from "../lib/preloadable.js";
import { mount } from "../test-support/react-root.js";
import { DeferredMenu, type MenuPress } from "./deferred-menu.js";

function OpenMenu({ press }: { press: MenuPress }) {
  return <p className="opened-menu">Opened by {press}</p>;
}

/** A menu whose code arrives when the test says so. */
function menuArrivingLater() {
  let arrive: () => void = () => undefined;
  const Menu = onDemand(
    () =>
      new Promise<typeof OpenMenu>((resolve) => {
        arrive = () => resolve(OpenMenu);
      }),
  );
  return { Menu, arrive: () => arrive() };
}

async function renderMenu(Menu: ReturnType<typeof menuArrivingLater>["Menu"]) {
  const { container } = await mount(
    <Suspense fallback={<p>Loading</p>}>
      <DeferredMenu load={Menu.preload} trigger={<button type="button">More</button>}>
        {(press) => <Menu press={press} />}
      </DeferredMenu>
    </Suspense>,
  );
  return container;
}

describe("DeferredMenu", () => {
  test("a press keeps the button, expanded, until the menu's code is there, then opens it in the same turn", async () => {
    const { Menu, arrive } = menuArrivingLater();
    const container = await renderMenu(Menu);
    const button = container.querySelector("button");
    expect(button?.getAttribute("aria-expanded")).toBe("false");
    await act(async () => button?.dispatchEvent(new KeyboardEvent("keydown", { key: "Enter", bubbles: true })));
    expect(container.querySelector("button")?.getAttribute("aria-expanded")).toBe("true");
    expect(container.textContent).toBe("More");
    await act(async () => arrive());
    // No Suspense fallback was shown, so React holds nothing back.
    expect(container.querySelector(".opened-menu")?.textContent).toBe("Opened by keyboard");
  });

  test("reaching the button fetches the menu's code, so the press opens it at once", async () => {
    const { Menu, arrive } = menuArrivingLater();
    const container = await renderMenu(Menu);
    const button = container.querySelector("button");
    await act(async () => button?.focus());
    await act(async () => arrive());
    await act(async () => button?.dispatchEvent(new KeyboardEvent("keydown", { key: "Enter", bubbles: true })));
    expect(container.querySelector(".opened-menu")?.textContent).toBe("Opened by keyboard");
  });
});
