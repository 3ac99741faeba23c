/**
 * The SDK owns the cache and builds every client (docs/conventions.md §7):
 * every query key, fetch and mutation the screens use comes from
 * `@engram/sdk/query`, whose mutations and named invalidation sets say what
 * each change invalidates; and no file reaches for supabase-js itself. Kept by
 * reading every source file under `src/` (tests aside), comments left out.
 */

import { describe, expect, it } from "vitest";
import { readSourceFiles } from "./test-support/source-files.js";

type Rule = { pattern: RegExp; message: string } | { find: (code: string) => number[]; message: string };

/** A property written in an object literal: `name: …`, the shorthand `{ name }` or a method `name() {…}`. */
function property(name: string): RegExp {
  return new RegExp(
    `(?<![.\\w$])${name}\\s*:|[{,]\\s*${name}\\s*(?=[,}])|(?<![.\\w$])${name}\\s*\\([^)]*\\)\\s*\\{`,
    "g",
  );
}

/** Methods of the query client that take a key itself as their first argument. */
const keyedMethods = [
  "getQueryData",
  "setQueryData",
  "getQueryState",
  "fetchQuery",
  "prefetchQuery",
  "ensureQueryData",
  "fetchInfiniteQuery",
  "prefetchInfiniteQuery",
  "ensureInfiniteQueryData",
  "setQueryDefaults",
  "getQueryDefaults",
].join("|");

/** Where a call reaches the whole cache: no argument, or filters naming no key (`{}`, `{ type: "active" }`). */
function keylessCalls(code: string): number[] {
  const found: number[] = [];
  for (const match of code.matchAll(/\.(?:invalidateQueries|refetchQueries|resetQueries)\s*\(/g)) {
    const open = match.index + match[0].length;
    let depth = 1;
    let end = open;
    while (end < code.length && depth > 0) {
      if (code[end] === "(") depth++;
      if (code[end] === ")") depth--;
      end++;
    }
    const argument = code.slice(open, end - 1).trim();
    if (argument === "" || (argument.startsWith("{") && !/\b(?:queryKey|predicate)\b/.test(argument))) {
      found.push(match.index);
    }
  }
  return found;
}

const cacheRules: Rule[] = [
  {
    pattern: property("queryKey"),
    message: "a query key written here: spread a query from engramQueries, or invalidate through engramMutations",
  },
  {
    pattern: /\[\s*\.\.\.\s*engramKeys\b/g,
    message: "a key array built here: add the key to engramKeys in @engram/sdk/query",
  },
  {
    pattern: new RegExp(`\\.(?:${keyedMethods})\\s*\\(\\s*\\[`, "g"),
    message: "a key array built here: take the key from engramKeys or engramQueries",
  },
  {
    pattern: property("queryFn"),
    message: "a fetch written here: the query and its key come together from engramQueries",
  },
  {
    pattern: property("mutationFn"),
    message: "a mutation written here: add it to engramMutations, which says what it invalidates",
  },
  {
    find: keylessCalls,
    message: "the whole cache invalidated: name the event's keys in engramInvalidations",
  },
];

/** Static and dynamic imports, re-exports and requires of supabase-js or one of its subpaths. */
const clientRules: Rule[] = [
  {
    pattern: /(?:\bfrom\s*|\bimport\s*\(?\s*|\brequire\s*\(\s*)["']@supabase\/supabase-js(?:\/[^"']*)?["']/g,
    message: "imports @supabase/supabase-js: build clients with createEngramClient from @engram/sdk",
  },
];

/**
 * The source with its comments blanked (same length, same lines), so a rule
 * quoted in a comment is no finding. Strings and regular expressions are
 * stepped over whole, so `//` inside them starts no comment.
 */
function withoutComments(source: string): string {
  let out = "";
  let i = 0;
  // What came before the next `/`: after a value it divides, elsewhere it starts a regular expression.
  let lastSignificant = "";
  const blank = (text: string) => text.replace(/[^\n]/g, " ");
  while (i < source.length) {
    const char = source[i] ?? "";
    const next = source[i + 1];
    let end = i + 1;
    if (char === "/" && next === "/") {
      end = source.indexOf("\n", i);
      if (end === -1) end = source.length;
      out += blank(source.slice(i, end));
      i = end;
      continue;
    }
    if (char === "/" && next === "*") {
      end = source.indexOf("*/", i + 2);
      end = end === -1 ? source.length : end + 2;
      out += blank(source.slice(i, end));
      i = end;
      continue;
    }
    if (char === '"' || char === "'" || char === "`") {
      while (end < source.length && source[end] !== char) end += source[end] === "\\" ? 2 : 1;
      end++;
    } else if (char === "/" && !/[\w$)\]]/.test(lastSignificant)) {
      let inClass = false;
      while (end < source.length && source[end] !== "\n" && (inClass || source[end] !== "/")) {
        if (source[end] === "[") inClass = true;
        if (source[end] === "]") inClass = false;
        end += source[end] === "\\" ? 2 : 1;
      }
      end++;
    }
    const token = source.slice(i, end);
    out += token;
    if (token.trim()) lastSignificant = token.trim().at(-1) ?? "";
    i = end;
  }
  return out;
}

/** Every finding as "file:line: message", given each file's source by its path under `src/`. */
function violations(sources: ReadonlyMap<string, string>, rules: readonly Rule[]): string[] {
  const found: string[] = [];
  for (const [file, source] of sources) {
    const code = withoutComments(source);
    for (const rule of rules) {
      const positions =
        "pattern" in rule ? [...code.matchAll(rule.pattern)].map((match) => match.index) : rule.find(code);
      for (const position of positions) {
        const line = code.slice(0, position).split("\n").length;
        found.push(`${file}:${line}: ${rule.message}`);
      }
    }
  }
  return found.sort((a, b) => a.localeCompare(b, "en", { numeric: true }));
}

describe("the query cache and the clients of src/", () => {
  const sources = readSourceFiles({ withTests: false });

  it("reads every source file", () => {
    expect(sources.has("session/factories.ts")).toBe(true);
    expect(sources.has("transfer/transfer.worker.ts")).toBe(true);
    expect(sources.size).toBeGreaterThan(100);
  });

  it("every query key, fetch, mutation and invalidation comes from @engram/sdk/query", () => {
    expect(violations(sources, cacheRules)).toEqual([]);
  });

  it("no file imports @supabase/supabase-js: the SDK builds every client", () => {
    expect(violations(sources, clientRules)).toEqual([]);
  });

  it("rejects each bad form, naming the file and line, and lets the SDK's forms through", () => {
    const bad = new Map([
      ["a.tsx", `import x from "y";\nuseQuery({ queryKey: ["profile", "avatar-url", path], queryFn });`],
      ["b.ts", `const key = [...engramKeys.decks.explore(params), "pages"];`],
      ["c.ts", `queryClient.setQueryData(["decks", "list"], decks);`],
      ["d.ts", `useQuery({ ...queries.decks.list(), queryFn: () => engram.decks.list() });`],
      ["e.ts", `\nconst m = useMutation({ mutationFn: () => engram.auth.signIn(input) });`],
      ["f.ts", `useMutation({ ...remove, mutationFn });`],
      ["g.ts", `void queryClient.invalidateQueries();`],
      ["h.ts", `void queryClient.invalidateQueries({});\nqueryClient.refetchQueries({ type: "active" });`],
      ["i.ts", `keys.map((queryKey) => queryClient.invalidateQueries({ queryKey }));`],
      ["j.ts", `import { createClient } from "@supabase/supabase-js";`],
      ["k.ts", `const { createClient } = await import("@supabase/supabase-js");`],
      ["l.ts", `export type { SupabaseClient } from "@supabase/supabase-js/dist/module";`],
    ]);
    const found = violations(bad, [...cacheRules, ...clientRules]);
    expect(found.map((finding) => finding.slice(0, finding.indexOf(": ")))).toEqual([
      "a.tsx:2",
      "a.tsx:2",
      "b.ts:1",
      "c.ts:1",
      "d.ts:1",
      "e.ts:2",
      "f.ts:1",
      "g.ts:1",
      "h.ts:1",
      "h.ts:2",
      "i.ts:1",
      "j.ts:1",
      "k.ts:1",
      "l.ts:1",
    ]);
    expect(found).toContain("g.ts:1: the whole cache invalidated: name the event's keys in engramInvalidations");

    const good = new Map([
      ["queries.tsx", `const url = useQuery(useEngramQueries().profile.avatarUrl(path));`],
      ["options.ts", `useQuery({ ...queries.members.list(deckId), enabled, staleTime: 0 });`],
      ["mutations.ts", `return useMutation(useEngramMutations().decks.transferOwnership());`],
      ["events.ts", `void invalidations.imported();\nqueryClient.clear();`],
      ["read.ts", `queryClient.getQueryData(queries.decks.list().queryKey);`],
      [
        "comments.ts",
        `// queryKey: ["x"] and invalidateQueries() in a comment\n/* mutationFn: */ const url = "https://x";`,
      ],
      ["strings.ts", `const pattern = /\\/\\/ "quoted/;\nconst a = b / c; // invalidateQueries()`],
      ["ssr.ts", `import { createBrowserClient } from "@supabase/ssr";`],
    ]);
    expect(violations(good, [...cacheRules, ...clientRules])).toEqual([]);
  });
});
