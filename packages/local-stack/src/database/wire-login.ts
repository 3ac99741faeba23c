/**
 * The login the CLI's database asks for, which PGlite does not: a password
 * (cleartext, on 127.0.0.1), and only `postgres`/`postgres` into database
 * `postgres`. The startup message reaches PGlite once the password is right.
 */
import { wireCredentials } from "./wire-credentials.js";

const protocol3 = 196608;
const passwordMessage = "p".charCodeAt(0);

export type LoginStep =
  | { answer: Buffer; done: false }
  | { answer: Buffer; done: true; startup: Uint8Array }
  | { answer: Buffer; failed: true };

export class WireLogin {
  private startup: Uint8Array | null = null;
  private user = "";

  /** Handles one message before login: asks for the password, checks it, or refuses. */
  step(message: Uint8Array): LoginStep {
    const bytes = Buffer.from(message);
    if (!this.startup) {
      if (bytes.length < 8 || bytes.readInt32BE(4) !== protocol3) {
        return { answer: fatal("08P01", "invalid startup packet layout"), failed: true };
      }
      const params = startupParameters(bytes);
      this.user = params.user ?? "";
      const database = params.database ?? this.user;
      if (this.user === wireCredentials.user && database !== wireCredentials.database) {
        return { answer: fatal("3D000", `database "${database}" does not exist`), failed: true };
      }
      this.startup = message;
      // AuthenticationCleartextPassword
      return { answer: Buffer.from([82, 0, 0, 0, 8, 0, 0, 0, 3]), done: false };
    }
    if (bytes[0] !== passwordMessage) {
      return { answer: fatal("08P01", "expected password response"), failed: true };
    }
    const password = bytes.toString("utf8", 5, bytes.indexOf(0, 5));
    if (this.user !== wireCredentials.user || password !== wireCredentials.password) {
      return { answer: fatal("28P01", `password authentication failed for user "${this.user}"`), failed: true };
    }
    return { answer: Buffer.alloc(0), done: true, startup: this.startup };
  }
}

/** The name/value pairs after the protocol version, each a C string. */
function startupParameters(bytes: Buffer): Record<string, string> {
  const fields = bytes.toString("utf8", 8, bytes.length).split("\0");
  const params: Record<string, string> = {};
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const name = fields[i];
    if (name) params[name] = fields[i + 1] ?? "";
  }
  return params;
}

/** An ErrorResponse with severity FATAL, as Postgres ends a failed login. */
function fatal(code: string, message: string): Buffer {
  const body = Buffer.from(`SFATAL\0VFATAL\0C${code}\0M${message}\0\0`);
  const header = Buffer.alloc(5);
  header.write("E", 0);
  header.writeInt32BE(4 + body.length, 1);
  return Buffer.concat([header, body]);
}
