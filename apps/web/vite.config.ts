import react from "@vitejs/plugin-react";
import { defaultClientConditions, defineConfig, type Plugin } from "vite";
import { VitePWA } from "vite-plugin-pwa";

export default defineConfig({
  plugins: [
    react(),
    // Offline study (docs/product.md §2: study works offline): the built app is precached by
    // a service worker, so a reload without a connection still opens the app.
    // Calls to the stack (another origin) are never cached by it; the study
    // screen keeps the day's queue in IndexedDB itself.
    VitePWA({
      strategies: "generateSW",
      registerType: "autoUpdate",
      injectRegister: "script-defer",
      includeAssets: ["favicon.svg"],
      manifest: {
        name: "Engram",
        short_name: "Engram",
        description: "Spaced-repetition flashcards that work offline.",
        start_url: "/",
        display: "standalone",
        background_color: "#ffffff",
        theme_color: "#6d28d9",
        icons: [{ src: "/favicon.svg", sizes: "any", type: "image/svg+xml", purpose: "any" }],
      },
      workbox: {
        globPatterns: ["**/*.{js,css,html,svg,png,ico,webmanifest}"],
        // The editor's chunk is large; offline it must still load.
        maximumFileSizeToCacheInBytes: 8 * 1024 * 1024,
        // Math fonts are fetched only by cards with math; once fetched they are kept, so
        // a deck studied offline still typesets with them.
        runtimeCaching: [
          {
            urlPattern: /\/assets\/KaTeX_[^/]+\.(woff2|woff|ttf)$/,
            handler: "CacheFirst",
            options: { cacheName: "math-fonts", expiration: { maxEntries: 80 } },
          },
        ],
        navigateFallback: "/index.html",
        cleanupOutdatedCaches: true,
        clientsClaim: true,
        skipWaiting: true,
      },
    }),
  ],
  // "source" lets the app use workspace packages' TypeScript without a build; Vite's own
  // conditions stay: "browser" picks core's DOM sanitiser, "production" libraries' lean builds.
  resolve: { conditions: ["source", ...defaultClientConditions] },
  // .engram/.env is written by the local stack (`pnpm stack`); only VITE_* reaches the browser.
  envDir: "../../.engram",
  // The transfer worker loads its readers and the optimiser lazily; only module workers can split.
  worker: { format: "es", plugins: () => [sanitizerWithoutDom()] },
  server: { host: "127.0.0.1", port: 3000, strictPort: true },
  preview: { host: "127.0.0.1", port: 3000, strictPort: true },
  build: {
    rollupOptions: {
      output: {
        // Libraries change less often than the app: separate files stay cached across releases.
        // Only libraries every page needs are named; the rest stay with the lazy screens that
        // import them, so a chunk shared with a screen never drags its libraries into the entry.
        manualChunks(id) {
          // The router (wouter, regexparam) and use-sync-external-store, which it shares with TipTap and
          // the statistics screen's charts, are small and needed on every page.
          if (
            /\/node_modules\/(react|react-dom|scheduler|wouter|regexparam|use-sync-external-store|@tanstack\/(react-query|query-core))\//.test(
              id,
            )
          ) {
            return "react";
          }
          // cookie is @supabase/ssr's alone: left unnamed it lands in the react chunk, in every page.
          if (/\/node_modules\/(@supabase\/|cookie\/)/.test(id)) return "supabase";
          // The rich-text editor (TipTap over ProseMirror) loads only with the note editor, never up front.
          if (/\/node_modules\/(@tiptap\/|prosemirror-|orderedmap|rope-sequence|w3c-keyname|linkifyjs)/.test(id)) {
            return "editor";
          }
          return undefined;
        },
      },
    },
  },
});

/**
 * A worker has no DOM for DOMPurify, so core's `#sanitizer` there is its
 * sanitize-html build, as in Node (core tests both against the same cases).
 */
function sanitizerWithoutDom(): Plugin {
  return {
    name: "engram:worker-sanitizer",
    enforce: "pre",
    async resolveId(source, importer) {
      if (source !== "#sanitizer") return null;
      const resolved = await this.resolve(source, importer, { skipSelf: true });
      if (!resolved) return null;
      const withoutDom = resolved.id.replace(/sanitize-dom\.(ts|js|mjs)$/, "sanitize-node.$1");
      if (withoutDom === resolved.id) throw new Error(`Unexpected sanitiser for the worker: ${resolved.id}`);
      return { ...resolved, id: withoutDom };
    },
  };
}
