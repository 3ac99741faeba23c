import { defineVitestConfig } from "../../vitest.shared.js";

// The same sanitising rules run on sanitize-html in Node and on DOMPurify in
// browsers (package.json "imports": #sanitizer). "dom" runs the tests that
// sanitise again with the "browser" condition in jsdom, so both are held to them.
const browserConditions = ["source", "browser"];

const dom = defineVitestConfig({
  resolve: { conditions: browserConditions },
  environments: {
    client: { resolve: { conditions: browserConditions } },
    ssr: { resolve: { conditions: browserConditions } },
  },
  test: { name: "dom", environment: "jsdom" },
});
// Set, not merged: mergeConfig would add these to the shared include list.
if (dom.test) dom.test.include = ["src/{sanitize,svg,render,validation}.test.ts"];

export default defineVitestConfig({
  test: { projects: [defineVitestConfig({ test: { name: "node" } }), dom] },
});
