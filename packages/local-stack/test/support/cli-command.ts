import { once } from "node:events";
import { readFile } from "node:fs/promises";
import { createServer } from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const packageDir = fileURLToPath(new URL("../..", import.meta.url));

/** A port free on 127.0.0.1 right now, so a CLI under test leaves a running stack alone. */
export async function freePort(): Promise<number> {
  const server = createServer().listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as { port: number };
  server.close();
  return port;
}

/** The node arguments of package.json's `stack` script (`node <flags> bin/stack.mjs`), the launcher's path made absolute. */
export async function stackCommand(): Promise<string[]> {
  const { scripts } = JSON.parse(await readFile(join(packageDir, "package.json"), "utf8")) as {
    scripts: Record<string, string>;
  };
  const [node, ...args] = (scripts.stack ?? "").split(/\s+/);
  if (node !== "node") throw new Error(`the stack script is not a node command: ${scripts.stack}`);
  return args.map((arg) => (arg.endsWith(".mjs") ? join(packageDir, arg) : arg));
}
