/**
 * Starts the stack on another project's `supabase/` folder with the CLI's demo JWT secret,
 * as the official clients' test suites expect a `supabase start` stack:
 * `pnpm exec tsx --conditions=source scripts/upstream-stack.ts <project>/supabase [port] [--cli-gateway]`.
 * In memory; DATABASE_URL switches to a PostgreSQL server. Auth's per-address rate limits are
 * lifted, as the CLI's auth server applies none.
 *
 * `--cli-gateway` puts in front of it a proxy that, as the CLI's Kong does, checks no `apikey`:
 * a request without one goes on as anon, or as its `Authorization` (postgrest-js's suite sends none), and
 * one that is not the project's goes on as the request's `Authorization` (without
 * `Bearer`), as Kong's rewrite sends it (auth-js's suite signs its own keys with the project's
 * signing key). Hosted Supabase refuses both, so the stack itself keeps refusing them.
 */
import { createServer, request } from "node:http";
import { resolve } from "node:path";
import { liftAuthRateLimits } from "../src/config/config.js";
import { apiKeyJwts } from "../src/keys/api-keys.js";
import { startStack } from "../src/server.js";

const args = process.argv.slice(2);
const cliGateway = args.includes("--cli-gateway");
const [dir, portText] = args.filter((arg) => !arg.startsWith("--"));
if (!dir) throw new Error("Usage: upstream-stack.ts <supabase dir> [port] [--cli-gateway]");
const port = portText ? Number(portText) : 54321;
const running = await startStack({
  supabaseDir: resolve(dir),
  dataDir: null,
  databaseUrl: process.env.DATABASE_URL || undefined,
  port: cliGateway ? 0 : port,
  // The CLI's default secret: the suites hard-code keys signed with it.
  jwtSecret: "super-secret-jwt-token-with-at-least-32-characters-long",
  log: (line) => console.log(line),
  // The CLI's GoTrue has no GOTRUE_RATE_LIMIT_HEADER, so it limits no address
  // (supabase/auth `performRateLimitingWithHeader`); the suites sign up dozens of users.
  configure: liftAuthRateLimits,
});
const projectKeys = apiKeyJwts(running);
const proxy = cliGateway
  ? createServer((req, res) => {
      const target = new URL(req.url ?? "/", running.url);
      const headers: Record<string, string | string[] | undefined> = { ...req.headers, host: target.host };
      if (!headers.apikey) headers.apikey = running.anonKey;
      const apikey = typeof headers.apikey === "string" ? headers.apikey : undefined;
      if (apikey && !projectKeys.has(apikey)) {
        headers.authorization ??= apikey;
        headers.apikey = running.anonKey;
      }
      const forward = request(target, { method: req.method, headers }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      forward.on("error", () => res.destroy());
      req.pipe(forward);
    }).listen(port, "127.0.0.1")
  : undefined;
const url = proxy ? `http://127.0.0.1:${port}` : running.url;
console.log(`ready ${url}\nanon ${running.anonKey}\nservice ${running.serviceRoleKey}`);
const stop = async () => {
  proxy?.close();
  await running.close();
  process.exit(0);
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
