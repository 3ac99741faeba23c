/** A Storage request's JSON body: an object, `{}` when empty, InvalidRequest when not JSON. */
import { readCappedText } from "../gateway/capped-body.js";
import { errors } from "./errors.js";

/** Fastify's default body limit, which Storage keeps for its JSON routes. */
const maxJsonBytes = 1 << 20;

export async function jsonBody(req: Request): Promise<Record<string, unknown>> {
  const text = await readCappedText(req, maxJsonBytes);
  if (text === null) throw errors.bodyTooLarge();
  if (!text) return {};
  try {
    const body = JSON.parse(text) as unknown;
    return body && typeof body === "object" ? (body as Record<string, unknown>) : {};
  } catch {
    throw errors.invalidRequest("Body is not valid JSON");
  }
}
