import { randomUUID } from "node:crypto";
import type { Database } from "@engram/local-stack";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { openTestDatabase } from "./support/database.js";

// GoTrue's MFA verification attempt hook (config.toml): GoTrue calls it as
// supabase_auth_admin with every attempt, `valid` saying whether the code was
// right, and refuses the attempt when it answers "reject".

let db: Database;
beforeAll(async () => {
  db = await openTestDatabase();
});
afterAll(() => db?.close());

interface Decision {
  decision: string;
  message?: string;
}

/** One attempt as GoTrue sends it, in a transaction of its own as supabase_auth_admin. */
function attempt(factorId: string, valid: boolean, factorType = "totp"): Promise<Decision> {
  const event = {
    metadata: { uuid: randomUUID(), time: new Date().toISOString(), name: "mfa-verification", ip_address: "::1" },
    user_id: randomUUID(),
    factor_id: factorId,
    factor_type: factorType,
    valid,
  };
  return db.transaction(async (tx) => {
    await tx.exec("set local role supabase_auth_admin");
    const [row] = await tx.query<{ decision: Decision }>("select private.reject_reused_totp_code($1) as decision", [
      JSON.stringify(event),
    ]);
    return row?.decision as Decision;
  });
}

const continues = { decision: "continue" };
const rejects = {
  decision: "reject",
  message: "This code was already used. Sign in again with the next code from your authenticator app.",
};

/** Says the factor's last code was accepted `steps` 30 s steps before the current one. */
const acceptedStepsAgo = (factorId: string, steps: number) =>
  db.query(
    "update private.totp_verifications set step = floor(extract(epoch from now()) / 30)::bigint - $2 where factor_id = $1",
    [factorId, steps],
  );

describe("a valid code", () => {
  test("passes once, then any valid code for the factor is refused within its window", async () => {
    const factor = randomUUID();
    expect(await attempt(factor, true)).toEqual(continues);
    expect(await attempt(factor, true)).toEqual(rejects);
  });

  test("passes again from the third step after the one it was accepted in", async () => {
    const factor = randomUUID();
    expect(await attempt(factor, true)).toEqual(continues);
    await acceptedStepsAgo(factor, 2);
    expect(await attempt(factor, true)).toEqual(rejects);
    await acceptedStepsAgo(factor, 3);
    expect(await attempt(factor, true)).toEqual(continues);
    expect(await attempt(factor, true)).toEqual(rejects);
  });

  test("for one factor does not hold up another", async () => {
    const [phone, tablet] = [randomUUID(), randomUUID()];
    expect(await attempt(phone, true)).toEqual(continues);
    expect(await attempt(tablet, true)).toEqual(continues);
  });
});

describe("what the hook leaves to GoTrue", () => {
  test("a wrong code continues (GoTrue refuses it) and records nothing", async () => {
    const factor = randomUUID();
    expect(await attempt(factor, false)).toEqual(continues);
    expect(await attempt(factor, false)).toEqual(continues);
    expect(await attempt(factor, true)).toEqual(continues);
  });

  test("a factor other than an authenticator app continues", async () => {
    const factor = randomUUID();
    expect(await attempt(factor, true, "phone")).toEqual(continues);
    expect(await attempt(factor, true, "phone")).toEqual(continues);
  });
});

test("only supabase_auth_admin may call it, and nobody reads what it records through the API", async () => {
  for (const role of ["anon", "authenticated", "service_role"]) {
    const refused = await db
      .transaction(async (tx) => {
        await tx.exec(`set local role ${role}`);
        await tx.query("select private.reject_reused_totp_code('{}')");
      })
      .then(
        () => null,
        (error: { code?: string }) => error.code,
      );
    expect(refused).toBe("42501");
    const read = await db
      .transaction(async (tx) => {
        await tx.exec(`set local role ${role}`);
        await tx.query("select * from private.totp_verifications");
      })
      .then(
        () => null,
        (error: { code?: string }) => error.code,
      );
    expect(read).toBe("42501");
  }
});
