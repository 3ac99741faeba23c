import { startAppServer } from "../e2e/support/app-server.js";
import { adminClient, launchChromium, newUser, signIn } from "./support/browser-bench.js";
const server = await startAppServer();
const browser = await launchChromium();
try {
  const admin = adminClient(server.stackUrl, server.serviceRoleKey);
  const user = await newUser(admin);
  const context = await browser.newContext({ baseURL: server.appUrl });
  const page = await context.newPage();
  await signIn(page, user, "/stats");
  await page.waitForSelector('.stats[data-state="ready"]');
  for (let i = 0; i < 4; i++) {
    await page.goto("/stats", { waitUntil: "commit" });
    await page.waitForSelector('.stats[data-state="ready"]');
    const t = await page.evaluate(() => {
      const nav = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming;
      const res = (performance.getEntriesByType("resource") as PerformanceResourceTiming[]).map((e) => `${e.startTime.toFixed(0)}→${e.responseEnd.toFixed(0)} ${e.transferSize}B ${e.name.replace(/^https?:\/\/[^/]+/, "").slice(0, 70)}`);
      return [`nav responseEnd ${nav.responseEnd.toFixed(0)} domInteractive ${nav.domInteractive.toFixed(0)} dcl ${nav.domContentLoadedEventEnd.toFixed(0)} now ${performance.now().toFixed(0)}`, ...res].join("\n");
    });
    console.log(`--- load ${i}\n${t}`);
  }
} finally { await browser.close(); await server.close(); }
