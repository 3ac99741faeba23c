import { randomBytes } from "node:crypto";
import type { RunningStack } from "../src/server.js";
import { http } from "./http.js";
import { measure, stats } from "./measure.js";

const size = 5 * 1024 * 1024;
const rounds = 20;

/** Upload and download of a 5 MB file through /storage/v1, as the signed-in user into their imports folder. */
export async function storageThroughput(stack: RunningStack, token: string, userId: string): Promise<void> {
  const body = randomBytes(size);
  const headers = { apikey: stack.anonKey, authorization: `Bearer ${token}` };
  const url = (i: number) => `${stack.url}/storage/v1/object/imports/${userId}/bench-${i}.bin`;
  let n = 0;
  const uploads = await measure(
    async () => {
      const response = await http(url(n++), {
        method: "POST",
        headers: { ...headers, "content-type": "application/octet-stream" },
        body,
      });
      if (!response.ok) throw new Error(`upload: HTTP ${response.status} ${await response.text()}`);
      await response.arrayBuffer();
    },
    rounds,
    2,
  );
  const downloads = await measure(
    async () => {
      const response = await http(url(0), { headers });
      const bytes = await response.arrayBuffer();
      if (!response.ok || bytes.byteLength !== size) throw new Error(`download: HTTP ${response.status}`);
    },
    rounds,
    2,
  );
  const mbps = (samples: number[]) => (size / 1024 / 1024 / (stats(samples).p50 / 1000)).toFixed(0);
  console.log(
    `  storage 5 MB: upload p50 ${stats(uploads).p50.toFixed(1)} ms (${mbps(uploads)} MB/s), download p50 ${stats(downloads).p50.toFixed(1)} ms (${mbps(downloads)} MB/s)`,
  );
}
