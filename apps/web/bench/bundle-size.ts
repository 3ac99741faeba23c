/**
 * What a first visit to each route downloads: the production build's entry
 * plus the route's lazy chunk, with every chunk they import statically, as
 * JavaScript gzipped. Read from Vite's manifest of a fresh build. Each route
 * is held to its target (`targets`): a signed-out page, whose visitor may be
 * on a phone seeing Engram for the first time, and a signed-in screen, which
 * also loads the SDK, supabase-js and zod.
 *
 *   pnpm exec tsx bench/bundle-size.ts
 */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { build, type Manifest, type Rollup } from "vite";

const appDir = fileURLToPath(new URL("../", import.meta.url));

/**
 * Loaded by every signed-in route besides its screen: the SDK and supabase-js
 * (src/session/engram-context.tsx), and the header's account button
 * (src/ui/shell/app-layout.tsx), whose menu loads when it is pressed.
 */
const signedInModules = ["src/session/engram.ts", "src/ui/shell/user-menu.tsx"];

/** The most JavaScript (gzipped) a first visit may download, by who visits. */
const targets = { "signed out": 170 * 1024, "signed in": 200 * 1024 };

interface Route {
  name: string;
  path: string;
  /** Whose visit it is: a signed-in route also loads `signedInModules`. */
  audience: keyof typeof targets;
  modules: string[];
}

/**
 * Each route and the modules its first visit loads beyond the entry: the
 * router's and screens' lazy imports, and the SDK's sub-clients the screen
 * calls as it opens, which load their code with their first call
 * (packages/sdk/src/lazy-client.ts).
 */
const routes: Route[] = [
  {
    name: "landing (signed out)",
    path: "/",
    audience: "signed out",
    modules: ["src/features/home/home-page.tsx", "src/features/home/landing.tsx"],
  },
  {
    name: "dashboard",
    path: "/",
    audience: "signed in",
    modules: ["src/features/home/home-page.tsx", "src/features/home/dashboard.tsx"],
  },
  { name: "decks", path: "/decks", audience: "signed in", modules: ["src/features/decks/decks-page.tsx"] },
  {
    name: "deck screen",
    path: "/decks/:deckId",
    audience: "signed in",
    modules: [
      "src/features/note-browser/deck-page.tsx",
      "../../packages/sdk/src/note-types.ts",
      "../../packages/sdk/src/note-history.ts",
      // An editor's count of waiting suggestions; who else is here, and their pictures.
      "../../packages/sdk/src/suggestions.ts",
      "../../packages/sdk/src/realtime/deck-room.ts",
      "../../packages/sdk/src/storage.ts",
    ],
  },
  {
    name: "study",
    path: "/study",
    audience: "signed in",
    modules: ["src/features/study/study-page.tsx", "../../packages/sdk/src/study/index.ts"],
  },
  { name: "import", path: "/import", audience: "signed in", modules: ["src/features/import/import-page.tsx"] },
  { name: "statistics", path: "/stats", audience: "signed in", modules: ["src/features/stats/stats-page.tsx"] },
  {
    name: "settings",
    path: "/settings",
    audience: "signed in",
    // The profile's picture, for a user who has one.
    modules: ["src/features/settings/settings-page.tsx", "../../packages/sdk/src/storage.ts"],
  },
  {
    name: "settings + workload",
    path: "/settings",
    audience: "signed in",
    modules: [
      "src/features/settings/settings-page.tsx",
      "../../packages/sdk/src/storage.ts",
      "src/features/settings/workload-chart.tsx",
    ],
  },
];

/** Loaded by the import screen, Export and the optimiser once they start: the transfer worker and its wasm. */
const workerFiles = /^assets\/(transfer\.worker|fsrs_browser(_bg)?|workerHelpers|sql-wasm)[-.].*\.(js|wasm)$/;

/** Every file the build wrote. */
type Output = (Rollup.OutputChunk | Rollup.OutputAsset)[];

/**
 * The manifest key of the chunk holding each module: the module itself when it
 * is a chunk's entry, else the chunk Rollup merged it into (named `_name-hash.js`).
 */
function chunkKeys(manifest: Manifest, output: Output, modules: string[]): string[] {
  const keyOfFile = new Map(Object.entries(manifest).map(([key, chunk]) => [chunk.file, key]));
  return modules.flatMap((module) => {
    if (manifest[module]) return [module];
    const chunk = output.find((item) => item.type === "chunk" && item.moduleIds.includes(join(appDir, module)));
    const key = chunk ? keyOfFile.get(chunk.fileName) : undefined;
    return key ? [key] : [];
  });
}

/** The chunk files of `keys` and everything they import statically. */
function closure(manifest: Manifest, keys: string[]): Set<string> {
  const files = new Set<string>();
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    const chunk = manifest[key];
    if (!chunk) throw new Error(`${key} is not in the build's manifest`);
    files.add(chunk.file);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  for (const key of keys) visit(key);
  return files;
}

/** The packages (or workspace folders) making up most of a chunk, largest first, by rendered length. */
function contents(output: Output, file: string): string {
  const chunk = output.find((item) => item.type === "chunk" && item.fileName === file);
  if (chunk?.type !== "chunk") return "";
  const lengths = new Map<string, number>();
  for (const [id, module] of Object.entries(chunk.modules)) {
    const owner =
      /.*\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(id)?.[1] ??
      /\/(packages\/[^/]+|apps\/web\/src\/[^/]+)\//.exec(id)?.[1] ??
      "other";
    lengths.set(owner, (lengths.get(owner) ?? 0) + module.renderedLength);
  }
  const total = [...lengths.values()].reduce((sum, length) => sum + length, 0);
  return [...lengths]
    .sort((a, b) => b[1] - a[1])
    .filter(([, length]) => length / total >= 0.05)
    .map(([owner, length]) => `${owner} ${Math.round((100 * length) / total)}%`)
    .join(", ");
}

async function main() {
  const outDir = await mkdtemp(join(tmpdir(), "engram-bundle-"));
  try {
    // The build inlines these; the values only have to look right.
    process.env.VITE_SUPABASE_URL ??= "http://127.0.0.1:54321";
    process.env.VITE_SUPABASE_ANON_KEY ??= "bundle-size";
    const result = await build({
      root: appDir,
      configFile: join(appDir, "vite.config.ts"),
      mode: "production",
      logLevel: "warn",
      build: { outDir, emptyOutDir: true, manifest: true },
    });
    const manifest = JSON.parse(await readFile(join(outDir, ".vite/manifest.json"), "utf8")) as Manifest;
    const output = (Array.isArray(result) ? result : [result]).flatMap((item) => ("output" in item ? item.output : []));
    const gzipped = new Map<string, number>();
    const sizeOf = async (file: string) => {
      let size = gzipped.get(file);
      if (size === undefined) {
        size = gzipSync(await readFile(join(outDir, file)), { level: 9 }).length;
        gzipped.set(file, size);
      }
      return size;
    };
    const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

    const entry = closure(manifest, ["index.html"]);
    let entryBytes = 0;
    for (const file of entry) entryBytes += await sizeOf(file);
    console.log(`entry (every route): ${kb(entryBytes)} JS gzipped in ${entry.size} files`);
    for (const file of [...entry].sort()) console.log(`  ${file.padEnd(44)} ${kb(await sizeOf(file))}`);
    console.log("");
    console.log(`${"route".padEnd(22)} ${"path".padEnd(16)} ${"JS gzipped".padStart(11)}  target`);
    const closures: { route: Route; files: Set<string> }[] = [];
    for (const route of routes) {
      const modules = route.audience === "signed in" ? [...route.modules, ...signedInModules] : route.modules;
      const present = chunkKeys(manifest, output, modules);
      if (present.length < modules.length) {
        console.log(`${route.name.padEnd(22)} ${route.path.padEnd(16)} ${"not built".padStart(11)}`);
        continue;
      }
      const files = closure(manifest, ["index.html", ...present]);
      closures.push({ route, files });
      let bytes = 0;
      for (const file of files) bytes += await sizeOf(file);
      const target = targets[route.audience];
      const verdict = bytes <= target ? "met" : `MISSED by ${kb(bytes - target)}`;
      console.log(
        `${route.name.padEnd(22)} ${route.path.padEnd(16)} ${kb(bytes).padStart(11)}  ≤ ${kb(target)} ${route.audience}: ${verdict}`,
      );
      const extra = [...files].filter((file) => !entry.has(file)).map((file) => file.replace(/^assets\//, ""));
      console.log(`${"".padEnd(22)} entry + ${extra.join(", ")}`);
    }

    // What every signed-in route pays before its own screen: the floor under the signed-in target.
    const signedIn = closures.filter(({ route }) => route.audience === "signed in").map(({ files }) => files);
    const [first] = signedIn;
    if (first) {
      const shared = [...first].filter((file) => signedIn.every((files) => files.has(file)));
      const sizes = await Promise.all(shared.map(async (file) => ({ file, bytes: await sizeOf(file) })));
      sizes.sort((a, b) => b.bytes - a.bytes);
      const total = sizes.reduce((sum, { bytes }) => sum + bytes, 0);
      console.log("");
      console.log(`loaded by every signed-in route: ${kb(total)} JS gzipped in ${sizes.length} files`);
      for (const { file, bytes } of sizes) {
        console.log(`  ${file.padEnd(44)} ${kb(bytes).padStart(8)}  ${contents(output, file)}`);
      }
    }
    console.log("");
    console.log("transfer worker (on first import, export or optimise), gzipped:");
    const emitted = output.map((item) => item.fileName).filter((file) => workerFiles.test(file));
    for (const file of emitted.sort()) console.log(`  ${file.padEnd(44)} ${kb(await sizeOf(file))}`);
  } finally {
    await rm(outDir, { recursive: true, force: true });
  }
}

await main();
