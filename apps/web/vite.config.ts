import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

export default defineConfig({
  plugins: [react()],
  // "source" lets the app use workspace packages' TypeScript without a build.
  resolve: { conditions: ["source"] },
  // .engram/.env is written by the local stack (`pnpm stack`); only VITE_* reaches the browser.
  envDir: "../../.engram",
  server: { host: "127.0.0.1", port: 3000, strictPort: true },
  preview: { host: "127.0.0.1", port: 3000, strictPort: true },
  build: {
    rollupOptions: {
      output: {
        // Libraries change less often than the app: separate files stay cached across releases.
        manualChunks(id) {
          if (/\/node_modules\/(react|react-dom|react-router|scheduler|@tanstack)\//.test(id)) return "react";
          if (id.includes("/node_modules/@supabase/")) return "supabase";
          if (id.includes("/node_modules/")) return "vendor";
          return undefined;
        },
      },
    },
  },
});
