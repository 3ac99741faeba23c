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
});
