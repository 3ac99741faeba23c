/**
 * A bench's stack in a process of its own (signedInOnStackProcess): prints
 * its address as one JSON line, then runs until its stdin closes, when it
 * stops and prints its peak RSS.
 */
import { startStack } from "@engram/local-stack";
import { benchStackOptions } from "./stack-options.js";

const stack = await startStack(benchStackOptions());
console.log(JSON.stringify({ url: stack.url, anonKey: stack.anonKey, serviceRoleKey: stack.serviceRoleKey }));
process.stdin.resume();
process.stdin.once("end", async () => {
  await stack.close();
  console.log(JSON.stringify({ peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024) }));
  process.exit(0);
});
