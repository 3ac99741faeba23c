/** A Storage request's JSON body: an object, `{}` when empty, InvalidRequest when not JSON. */
import { errors } from "./errors.js";

export async function jsonBody(req: Request): Promise<Record<string, unknown>> {
  const text = await req.text();
  if (!text) return {};
  try {
    const body = JSON.parse(text) as unknown;
    return body && typeof body === "object" ? (body as Record<string, unknown>) : {};
  } catch {
    throw errors.invalidRequest("Body is not valid JSON");
  }
}
