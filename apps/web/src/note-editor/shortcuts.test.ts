import { describe, expect, it } from "vitest";
import { ariaKeys, describeKeys, matchesKeys, noteEditorShortcuts } from "./shortcuts.js";

const press = (
  key: string,
  modifiers: Partial<Record<"ctrlKey" | "metaKey" | "shiftKey" | "altKey", boolean>> = {},
) => ({
  key,
  ctrlKey: false,
  metaKey: false,
  shiftKey: false,
  altKey: false,
  ...modifiers,
});

// Mod is Cmd on a Mac, Ctrl elsewhere; the tests hold on either.
const mac = typeof navigator !== "undefined" && /Mac|iPhone|iPad/.test(navigator.platform);
const mod = mac ? "metaKey" : "ctrlKey";

describe("the HTML view's shortcut, Anki's Ctrl+Shift+X", () => {
  const keys = noteEditorShortcuts.html.keys;

  it("is read and announced as Ctrl+Shift+X (Cmd on a Mac)", () => {
    expect(describeKeys(keys)).toBe(mac ? "⌘+Shift+X" : "Ctrl+Shift+X");
    expect(ariaKeys(keys)).toBe(mac ? "Meta+Shift+X" : "Control+Shift+X");
  });

  it("matches Mod+Shift+X, whichever case the key comes in", () => {
    expect(matchesKeys(keys, press("X", { [mod]: true, shiftKey: true }))).toBe(true);
    expect(matchesKeys(keys, press("x", { [mod]: true, shiftKey: true }))).toBe(true);
  });

  it("does not match the key with fewer or more modifiers", () => {
    expect(matchesKeys(keys, press("x", { [mod]: true }))).toBe(false);
    expect(matchesKeys(keys, press("X", { shiftKey: true }))).toBe(false);
    expect(matchesKeys(keys, press("X", { [mod]: true, shiftKey: true, altKey: true }))).toBe(false);
    expect(matchesKeys(keys, press("c", { [mod]: true, shiftKey: true }))).toBe(false);
  });
});
