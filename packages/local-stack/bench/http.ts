import { Pool } from "undici";

// One keep-alive connection per origin, as a load tool such as wrk drives a
// server: Node's global fetch adds ~0.7 ms of client-side work per request,
// which would otherwise be counted as the server's overhead.
const pools = new Map<string, Pool>();

export interface HttpResponse {
  ok: boolean;
  status: number;
  text(): Promise<string>;
  arrayBuffer(): Promise<ArrayBuffer>;
}

export async function http(
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string | Uint8Array } = {},
): Promise<HttpResponse> {
  const { origin, pathname, search } = new URL(url);
  let pool = pools.get(origin);
  if (!pool) {
    pool = new Pool(origin, { connections: 1 });
    pools.set(origin, pool);
  }
  const response = await pool.request({
    path: pathname + search,
    method: (init.method ?? "GET") as "GET",
    headers: init.headers,
    body: init.body,
  });
  return {
    ok: response.statusCode >= 200 && response.statusCode < 300,
    status: response.statusCode,
    text: () => response.body.text(),
    arrayBuffer: () => response.body.arrayBuffer(),
  };
}

export async function closeHttp(): Promise<void> {
  await Promise.all([...pools.values()].map((pool) => pool.close()));
  pools.clear();
}
