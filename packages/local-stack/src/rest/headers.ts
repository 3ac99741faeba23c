/** The request's headers as PostgREST exposes them to SQL in `request.headers`. */

const httpWhitespace = /^[\t\n\r ]+|[\t\n\r ]+$/g;

/**
 * Lower-case names to values, repeated headers joined as `Headers` joins them
 * (`; ` for cookie, `, ` otherwise), in name order. Read from node's raw header
 * list when the server passes it on, which is several times cheaper than
 * building a full `Headers` to iterate.
 */
export function headerRecord(headers: Headers, rawHeaders?: readonly string[]): Record<string, string> {
  if (!rawHeaders) return Object.fromEntries(headers);
  const joined = new Map<string, string>();
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    const name = (rawHeaders[i] as string).toLowerCase();
    if (name.startsWith(":")) continue;
    const value = (rawHeaders[i + 1] as string).replace(httpWhitespace, "");
    const previous = joined.get(name);
    joined.set(name, previous === undefined ? value : `${previous}${name === "cookie" ? "; " : ", "}${value}`);
  }
  const record: Record<string, string> = {};
  for (const name of [...joined.keys()].sort()) record[name] = joined.get(name) as string;
  return record;
}
