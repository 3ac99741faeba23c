/**
 * A request body read up to a cap, as each Supabase service caps what it reads
 * (PostgREST 10 MiB, GoTrue 1 MiB, Storage's JSON routes Fastify's 1 MiB,
 * Realtime's HTTP API Plug's 8 MB). Past the cap reading stops and `null` is
 * returned, so a huge body is refused without being held in memory; a declared
 * length above the cap is refused before any of it is read.
 */
export async function readCappedBody(req: Request, maxBytes: number): Promise<Uint8Array<ArrayBuffer> | null> {
  const declared = Number.parseInt(req.headers.get("content-length") ?? "", 10);
  if (declared > maxBytes) return null;
  if (!req.body) return new Uint8Array();
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    size += read.value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      return null;
    }
    chunks.push(read.value);
  }
  const body = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    body.set(chunk, at);
    at += chunk.byteLength;
  }
  return body;
}

/** The capped body as UTF-8 text, or `null` past the cap. */
export async function readCappedText(req: Request, maxBytes: number): Promise<string | null> {
  const body = await readCappedBody(req, maxBytes);
  return body === null ? null : new TextDecoder().decode(body);
}
