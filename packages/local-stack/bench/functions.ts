import { fileURLToPath } from "node:url";
import { startStack } from "../src/server.js";
import { http } from "./http.js";
import { measure, ms, stats } from "./measure.js";

// The conformance suite's project has `open`, a function that answers at once.
const fixtureDir = fileURLToPath(new URL("../test/fixtures/supabase/", import.meta.url));

/** What /functions/v1 adds to a function call: the HTTP invocation against calling the handler directly. */
export async function functionOverhead(): Promise<void> {
  const running = await startStack({ supabaseDir: fixtureDir, dataDir: null, port: 0 });
  try {
    const { default: handler } = (await import(`${fixtureDir}functions/open/handler.ts`)) as {
      default: (req: Request) => Promise<Response>;
    };
    const viaHttp = await measure(async () => {
      const response = await http(`${running.url}/functions/v1/open`, {
        method: "POST",
        headers: { apikey: running.anonKey },
      });
      await response.text();
    });
    const direct = await measure(async () => {
      await (await handler(new Request("http://localhost/open", { method: "POST" }))).text();
    });
    const h = stats(viaHttp);
    const d = stats(direct);
    console.log(`\n== functions (PGlite)\n  invoke p50 ${ms(h.p50)}  p95 ${ms(h.p95)}  direct call p50 ${ms(d.p50)}`);
    console.log(`  overhead p50 ${ms(h.p50 - d.p50)}`);
  } finally {
    await running.close();
  }
}
