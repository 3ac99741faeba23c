/**
 * The floor plan of `src/`, kept by reading every import: `app/` (entry,
 * providers, routes) on top, one folder per screen in `features/`, and shared
 * layers (`ui/`, `forms/`, `lib/`, `session/`, `transfer/`, …) under both.
 * Imports flow one way: a screen uses shared layers but never another screen,
 * and only `app/` knows the screens.
 */
import path from "node:path";
import { describe, expect, it } from "vitest";
import { readSourceFiles } from "./test-support/source-files.js";

type Area = { kind: "app" } | { kind: "feature"; name: string } | { kind: "shared"; name: string };

/** Where a file (a path relative to `src/`, with `/`) stands; files at the root count as shared. */
function areaOf(file: string): Area {
  const [top, next] = file.split("/");
  if (top === "app") return { kind: "app" };
  if (top === "features" && next !== undefined) return { kind: "feature", name: next };
  return { kind: "shared", name: top ?? "" };
}

/** Static and dynamic imports, re-exports and `new URL(…, import.meta.url)` (how the worker is loaded). */
const specifierPattern = /\bfrom\s*["']([^"']+)["']|\bimport\s*\(?\s*["']([^"']+)["']|\bnew URL\(\s*["']([^"']+)["']/g;

function importSpecifiers(source: string): string[] {
  return [...source.matchAll(specifierPattern)].map((match) => match[1] ?? match[2] ?? match[3] ?? "");
}

/** The rule an import from `file` to `target` breaks, or null when it follows the plan. */
function brokenRule(file: string, target: string): string | null {
  const from = areaOf(file);
  const to = areaOf(target);
  if (to.kind === "app" && from.kind !== "app") return "only app/ imports from app/";
  if (from.kind === "feature" && to.kind === "feature" && from.name !== to.name) {
    return `features/${from.name} imports from another feature (features/${to.name}); move the shared piece to a shared layer`;
  }
  if (from.kind === "shared" && to.kind === "feature") {
    return `the shared layer ${from.name}/ imports from a feature (features/${to.name})`;
  }
  return null;
}

/** Every import that breaks the plan, as "file imports "specifier": rule", given each file's source by its path under `src/`. */
function fenceViolations(sources: ReadonlyMap<string, string>): string[] {
  const violations: string[] = [];
  for (const [file, source] of sources) {
    for (const specifier of importSpecifiers(source)) {
      // Packages are imported by name; only relative specifiers point inside src/.
      if (!specifier.startsWith(".")) continue;
      const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier));
      if (target.startsWith("../")) continue;
      const rule = brokenRule(file, target);
      if (rule) violations.push(`${file} imports "${specifier}": ${rule}`);
    }
  }
  return violations;
}

describe("the floor plan of src/", () => {
  it("every import under src/ follows it", () => {
    const sources = readSourceFiles({ withTests: true });
    // The scan itself is checked: it sees the screens and their relative imports.
    expect(sources.has("app/router.tsx")).toBe(true);
    expect(sources.has("features/study/study-page.tsx")).toBe(true);
    const relative = [...sources.values()].flatMap(importSpecifiers).filter((s) => s.startsWith("."));
    expect(relative.length).toBeGreaterThan(300);

    expect(fenceViolations(sources)).toEqual([]);
  });

  it("rejects a feature importing from another feature, naming the file and specifier", () => {
    const sources = new Map([
      ["features/home/heatmap.tsx", 'import { YearCalendar } from "../stats/year-calendar.js";'],
      ["features/stats/year-calendar.tsx", "export function YearCalendar() {}"],
    ]);
    expect(fenceViolations(sources)).toEqual([
      'features/home/heatmap.tsx imports "../stats/year-calendar.js": features/home imports from another feature (features/stats); move the shared piece to a shared layer',
    ]);
  });

  it("rejects a shared layer importing from a feature, lazily or not", () => {
    const sources = new Map([
      ["ui/shell/user-menu.tsx", 'import { useSignOut } from "../../features/auth/use-auth.js";'],
      ["transfer/progress-report.tsx", 'const facts = import("../features/import/file-facts.js");'],
    ]);
    expect(fenceViolations(sources)).toEqual([
      'ui/shell/user-menu.tsx imports "../../features/auth/use-auth.js": the shared layer ui/ imports from a feature (features/auth)',
      'transfer/progress-report.tsx imports "../features/import/file-facts.js": the shared layer transfer/ imports from a feature (features/import)',
    ]);
  });

  it("rejects anything outside app/ importing from app/", () => {
    const sources = new Map([
      ["features/decks/decks-page.tsx", 'import { createRouter } from "../../app/router.js";'],
      ["session/engram.ts", 'export { env } from "../app/env.js";'],
    ]);
    expect(fenceViolations(sources)).toEqual([
      'features/decks/decks-page.tsx imports "../../app/router.js": only app/ imports from app/',
      'session/engram.ts imports "../app/env.js": only app/ imports from app/',
    ]);
  });

  it("allows imports within a feature, from features into shared layers, between shared layers and from app/", () => {
    const sources = new Map([
      [
        "features/study/study-session.tsx",
        [
          'import { CardView } from "../../ui/card-view/card-view.js";',
          'import { nextDue } from "./next-due.js";',
          'const Editor = lazy(() => import("../../note-editor/note-editor-dialog.js"));',
          'import { createEngram } from "@engram/sdk";',
        ].join("\n"),
      ],
      ["note-editor/card-preview.tsx", 'import { CardView } from "../ui/card-view/card-view.js";'],
      ["app/router.tsx", 'const load = () => import("../features/study/study-page.js");'],
    ]);
    expect(fenceViolations(sources)).toEqual([]);
  });
});
