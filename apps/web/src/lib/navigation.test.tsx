// @vitest-environment jsdom
import { act, type ReactNode } from "react";
import { describe, expect, test } from "vitest";
import { Route } from "wouter";
import { mount } from "../test-support/react-root.js";
import { Link, type Location, Navigate, NavLink, useLocation, useParams } from "./navigation.js";

let container: HTMLElement;

async function render(url: string, element: ReactNode) {
  history.replaceState(null, "", url);
  const mounted = await mount(element);
  container = mounted.container;
  return mounted;
}

function click(name: string) {
  const link = [...container.querySelectorAll("a")].find((a) => a.textContent === name);
  if (!link) throw new Error(`no link ${name}`);
  act(() => link.dispatchEvent(new MouseEvent("click", { bubbles: true, cancelable: true, button: 0 })));
}

let seen: Location | undefined;
function Where() {
  seen = useLocation();
  return null;
}

let params: Readonly<Record<string, string | undefined>> = {};
function Invite() {
  params = useParams();
  return null;
}

describe("navigation", () => {
  test("a link goes to its address in the page, with the state it carries", async () => {
    await render(
      "/decks",
      <>
        <Link to="/decks/d1?tab=cards" state={{ createDeck: true }}>
          Open
        </Link>
        <Where />
      </>,
    );
    expect(container.querySelector("a")?.getAttribute("href")).toBe("/decks/d1?tab=cards");
    click("Open");
    expect(window.location.pathname).toBe("/decks/d1");
    expect(seen).toMatchObject({ pathname: "/decks/d1", search: "?tab=cards", state: { createDeck: true } });
  });

  test("a navigation link is current on its page and the pages under it, and only there", async () => {
    const nav = (
      <>
        <NavLink to="/decks">Decks</NavLink>
        <NavLink to="/explore">Explore</NavLink>
      </>
    );
    await render("/decks/d1/study", nav);
    const [decks, explore] = [...container.querySelectorAll("a")];
    expect(decks?.getAttribute("aria-current")).toBe("page");
    expect(decks?.className).toBe("active");
    expect(explore?.hasAttribute("aria-current")).toBe(false);
    click("Explore");
    expect(decks?.hasAttribute("aria-current")).toBe(false);
    expect(explore?.getAttribute("aria-current")).toBe("page");
  });

  test("a route's params arrive decoded", async () => {
    await render(
      "/invite/a%20b%2Fc",
      <Route path="/invite/:token">
        <Invite />
      </Route>,
    );
    expect(params).toEqual({ token: "a b/c" });
  });

  test("Navigate replaces the entry when asked, so Back skips it", async () => {
    const { rerender } = await render("/start", null);
    history.pushState(null, "", "/old");
    const length = history.length;
    await rerender(<Navigate to="/sign-in?next=%2Fold" replace state={{ reason: "expired" }} />);
    expect(`${window.location.pathname}${window.location.search}`).toBe("/sign-in?next=%2Fold");
    expect(history.length).toBe(length);
    expect(history.state).toEqual({ reason: "expired" });
  });
});
