import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const srcDir = fileURLToPath(new URL("..", import.meta.url));

/** Every .ts/.tsx file under src/, by its path from src/ with forward slashes, and its text. */
export function readSourceFiles({ withTests }: { withTests: boolean }): Map<string, string> {
  const files = readdirSync(srcDir, { recursive: true, encoding: "utf8" })
    .map((file) => file.split(path.sep).join("/"))
    .filter((file) => /\.tsx?$/.test(file) && (withTests || !/\.test\.tsx?$/.test(file)))
    .sort();
  return new Map(files.map((file) => [file, readFileSync(path.join(srcDir, file), "utf8")]));
}
