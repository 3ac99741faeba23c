import { describe, expect, it } from "vitest";
import { clientFor, stackPerFile } from "../support/stack.js";
import { lastEmail, uniqueEmail } from "./helpers.js";

const stack = stackPerFile({
  configure: (config) => {
    config.auth.enableAnonymousSignIns = true;
  },
});
const password = "correct horse battery";

describe("reauthenticate", () => {
  it("emails a signed-in user a code, kept as their reauthentication token", async () => {
    const email = uniqueEmail("reauth");
    await clientFor(stack, stack.serviceRoleKey).auth.admin.createUser({ email, password, email_confirm: true });
    const client = clientFor(stack);
    await client.auth.signInWithPassword({ email, password });
    const { data, error } = await client.auth.reauthenticate();
    expect(error).toBeNull();
    expect(data).toEqual({ user: null, session: null });
    const mail = await lastEmail(stack, email);
    expect(mail.subject).toBe("Confirm reauthentication");
    expect(mail.otp).toMatch(/^\d{6}$/);
    const [row] = await stack.stack.db.query<{ reauthentication_token: string; sent: boolean }>(
      "select reauthentication_token, reauthentication_sent_at is not null as sent from auth.users where email = $1",
      [email],
    );
    expect(row?.sent).toBe(true);
    expect(row?.reauthentication_token).toMatch(/^[0-9a-f]{56}$/);
  });

  it("refuses a user without an address, as GoTrue", async () => {
    const client = clientFor(stack);
    await client.auth.signInAnonymously();
    const { error } = await client.auth.reauthenticate();
    expect(error).toMatchObject({
      status: 400,
      code: "validation_failed",
      message: "Reauthentication requires the user to have an email or a phone number",
    });
  });
});
