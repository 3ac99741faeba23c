/**
 * COPY … TO/FROM PROGRAM would run a program from the database server. On
 * the platform `postgres` is not a superuser and PostgreSQL refuses it (42501);
 * the embedded database's one user is, and PGlite cannot start a program: the
 * statement never returns and blocks the whole stack. So a client's query
 * naming one is replaced, before it reaches PGlite, by a statement failing as
 * PostgreSQL refuses it, and the client sees the platform's answer.
 */
const programCopy = /\bcopy\b[\s\S]*?\b(?:to|from)\s+program\b/i;

const refusal = `do $engram$ begin raise exception using errcode = '42501',
  message = 'permission denied to COPY to or from an external program',
  detail = 'Only roles with privileges of the "pg_execute_server_program" role may COPY to or from an external program.',
  hint = 'Anyone can COPY to stdout or from stdin. psql''s \\copy command also works for anyone.'; end $engram$`;

const query = "Q".charCodeAt(0);
const parse = "P".charCodeAt(0);

/** The message as sent, or, when its SQL copies to or from a program, the same message carrying the refusal. */
export function refuseProgramCopy(message: Uint8Array): Uint8Array {
  const kind = message[0];
  if (kind !== query && kind !== parse) return message;
  const bytes = Buffer.from(message.buffer, message.byteOffset, message.byteLength);
  let at = 5;
  let name: Buffer = Buffer.alloc(0);
  if (kind === parse) {
    const nameEnd = bytes.indexOf(0, at);
    name = bytes.subarray(at, nameEnd + 1);
    at = nameEnd + 1;
  }
  const sqlEnd = bytes.indexOf(0, at);
  if (sqlEnd < 0 || !programCopy.test(bytes.toString("utf8", at, sqlEnd))) return message;
  // A Parse keeps its statement name; its parameter types go, as the refusal takes none.
  const body = Buffer.concat([
    name,
    Buffer.from(`${refusal}\0`),
    kind === parse ? Buffer.from([0, 0]) : Buffer.alloc(0),
  ]);
  const rewritten = Buffer.alloc(5 + body.length);
  rewritten[0] = kind;
  rewritten.writeInt32BE(4 + body.length, 1);
  body.copy(rewritten, 5);
  return rewritten;
}
