import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";
import { checkReferences, type Sections, sectionNumbers } from "./references.js";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");

/** Source and documentation files git tracks, without generated or changelog text and this checker's own examples. */
function trackedFiles(): string[] {
  const listed = execFileSync("git", ["ls-files", "-z"], { cwd: root, encoding: "utf8" }).split("\0");
  return listed.filter(
    (file) =>
      /\.(?:ts|tsx|js|mjs|cjs|sql|md|toml|css|html|ya?ml|json)$/.test(file) &&
      !/(?:^|\/)(?:node_modules|dist|\.changeset)\//.test(file) &&
      !/(?:^|\/)CHANGELOG\.md$/.test(file) &&
      !/^docs\/references(?:\.test)?\.ts$/.test(file) &&
      // A file another change has just deleted or moved is still listed until it is committed.
      existsSync(join(root, file)),
  );
}

const sample: Sections = new Map([
  ["docs/product.md", new Set([1, 2, 3, 4, 5, 6, 7, 8, 9, 10])],
  ["docs/conventions.md", new Set([1, 2, 3])],
]);
const check = (file: string, text: string) =>
  checkReferences(file, text, sample).map(({ line, message }) => `${line}: ${message}`);

describe("checkReferences", () => {
  test("accepts a document and its sections, on one line or a comment that continues it", () => {
    expect(check("a.ts", "/** Limits (docs/product.md §5, §9). */")).toEqual([]);
    expect(check("a.ts", "// as docs/product.md §6\n// (with §3 and §7) says")).toEqual([]);
    expect(check("a.ts", "/**\n * docs/conventions.md §3 and docs/product.md\n * §10\n */")).toEqual([]);
    expect(check("docs/product.md", "As in §1.")).toEqual([]);
  });

  test("rejects a section the document does not have", () => {
    expect(check("a.ts", "// docs/conventions.md §4")).toEqual([
      '1: docs/conventions.md has no section 4 (no "## 4. " heading)',
    ]);
  });

  test("rejects a section with no document before it, or after the comment ended", () => {
    expect(check("a.ts", "// the rules of §5")).toEqual(["1: §5 names no document: write docs/<file>.md §5"]);
    expect(check("a.ts", "// docs/product.md §5\nconst a = 1;\n// and §6")).toEqual([
      "3: §6 names no document: write docs/<file>.md §6",
    ]);
    expect(check("README.md", "docs/product.md §5\n\n§6")).toEqual([
      "3: §6 names no document: write docs/<file>.md §6",
    ]);
  });

  test("rejects a document that does not exist", () => {
    expect(check("a.ts", "// docs/style.md §3")).toEqual(["1: docs/style.md does not exist"]);
  });

  test("rejects the names of documents outside the repository", () => {
    const outside = "names a document outside the repository: cite docs/<file>.md §n instead";
    expect(check("a.ts", "// (PRODUCT.md §8)")).toEqual([
      `1: "PRODUCT" ${outside}`,
      "1: §8 names no document: write docs/<file>.md §8",
    ]);
    expect(check("a.ts", "// read this table (STYLE 25)")).toEqual([`1: "STYLE 25" ${outside}`]);
    expect(check("a.ts", "// see ARCHITECTURE.md")).toEqual([`1: "ARCHITECTURE" ${outside}`]);
  });
});

test("every reference in the repository names a document and a section that exist", () => {
  const files = trackedFiles();
  const sections = new Map(
    files
      .filter((file) => /^docs\/[\w-]+\.md$/.test(file))
      .map((file) => [file, sectionNumbers(readFileSync(join(root, file), "utf8"))]),
  );
  const problems = files.flatMap((file) => checkReferences(file, readFileSync(join(root, file), "utf8"), sections));
  expect(problems.map(({ file, line, message }) => `${file}:${line}: ${message}`)).toEqual([]);
});
