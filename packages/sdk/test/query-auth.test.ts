import { createHmac } from "node:crypto";
import {
  MutationObserver,
  QueryClient,
  type QueryKey,
  QueryObserver,
  type QueryObserverOptions,
} from "@tanstack/react-query";
import { describe, expect, test, vi } from "vitest";
import { createEngram, type Engram } from "../src/client.js";
import { engramKeys, engramMutations, engramQueries } from "../src/query/index.js";
import { adminClient, lastEmail, newAccount, signedIn, supabaseClient, uniqueEmail } from "./support/engram.js";

/** What an authenticator app shows for a base32 secret (RFC 6238: SHA-1, 6 digits, 30 s). */
function authenticatorCode(secret: string, at = Date.now()): string {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  let bits = "";
  for (const char of secret) bits += alphabet.indexOf(char).toString(2).padStart(5, "0");
  const key = Buffer.from((bits.match(/.{8}/g) ?? []).map((byte) => Number.parseInt(byte, 2)));
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(at / 30_000)));
  const hmac = createHmac("sha1", key).update(counter).digest();
  const offset = (hmac.at(-1) ?? 0) & 15;
  return String((hmac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).padStart(6, "0");
}

function setup(engram: Engram) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return { queryClient, queries: engramQueries(engram), mutations: engramMutations(engram, queryClient) };
}

/** Keeps a query active, as a mounted component would, so invalidating it refetches it. */
async function observed<T, Key extends QueryKey>(
  queryClient: QueryClient,
  options: QueryObserverOptions<T, Error, T, T, Key>,
) {
  const observer = new QueryObserver(queryClient, options);
  const unsubscribe = observer.subscribe(() => {});
  await vi.waitFor(() => expect(observer.getCurrentResult().isSuccess).toBe(true));
  return { observer, unsubscribe };
}

describe("auth through the React Query factories", () => {
  test("signing up, in, by link and resetting a password are mutations that send what the SDK sends", async () => {
    const engram = createEngram(supabaseClient());
    const { mutations, queryClient } = setup(engram);
    const callback = "http://localhost:5173/auth/callback";

    const email = uniqueEmail("query-signup");
    const signUp = await new MutationObserver(queryClient, mutations.auth.signUp()).mutate({
      email,
      password: "correct horse",
      redirectTo: callback,
    });
    expect(signUp.user.email).toBe(email);
    expect((await lastEmail(email)).link).not.toBe("");

    const account = await newAccount("query-signin");
    const session = await new MutationObserver(queryClient, mutations.auth.signIn()).mutate(account);
    expect(session.user.id).toBe(account.id);

    await new MutationObserver(queryClient, mutations.auth.sendMagicLink()).mutate({
      email: account.email,
      redirectTo: callback,
    });
    expect((await lastEmail(account.email)).count).toBe(1);
    await new MutationObserver(queryClient, mutations.auth.requestPasswordReset()).mutate({
      email: account.email,
      redirectTo: callback,
    });
    expect((await lastEmail(account.email)).count).toBe(2);

    await new MutationObserver(queryClient, mutations.auth.updatePassword()).mutate("a brand new password");
    await createEngram(supabaseClient()).auth.signIn({ email: account.email, password: "a brand new password" });
  });

  test("enrolling and confirming an app refresh the factors and the level; a sign-in elsewhere owes the code; removing it refreshes both", async () => {
    const { engram, account } = await signedIn("query-mfa");
    const { queryClient, queries, mutations } = setup(engram);
    const factors = await observed(queryClient, queries.auth.factors());
    const assurance = await observed(queryClient, queries.auth.assurance(account.id));
    expect(assurance.observer.getCurrentResult().data).toEqual({ current: "aal1", next: "aal1" });
    expect(queries.auth.assurance(account.id).queryKey).toEqual([...engramKeys.auth.assurance(), account.id]);

    const enrolment = await new MutationObserver(queryClient, mutations.auth.mfa.enrollTotp()).mutate({
      friendlyName: "Phone",
    });
    await new MutationObserver(queryClient, mutations.auth.mfa.verifyTotp()).mutate({
      factorId: enrolment.factorId,
      code: authenticatorCode(enrolment.secret),
    });
    // Refetched before the mutation settled.
    expect(factors.observer.getCurrentResult().data).toEqual([
      expect.objectContaining({ id: enrolment.factorId, friendlyName: "Phone", status: "verified" }),
    ]);
    expect(assurance.observer.getCurrentResult().data).toEqual({ current: "aal2", next: "aal2" });

    // A password sign-in on another device is aal1 until the code is given.
    const device = createEngram(supabaseClient());
    await device.auth.signIn(account);
    const other = setup(device);
    const level = await observed(other.queryClient, other.queries.auth.assurance(account.id));
    expect(level.observer.getCurrentResult().data).toEqual({ current: "aal1", next: "aal2" });
    level.unsubscribe();

    await new MutationObserver(queryClient, mutations.auth.mfa.unenroll()).mutate(enrolment.factorId);
    expect(factors.observer.getCurrentResult().data).toEqual([]);
    expect(assurance.observer.getCurrentResult().data).toEqual({ current: "aal1", next: "aal1" });
    factors.unsubscribe();
    assurance.unsubscribe();
  });

  test("completing a sign-in with a code already accepted is refused and ends the user's sessions", async () => {
    const { engram, account } = await signedIn("query-mfa-once");
    const enrolment = await engram.auth.mfa.enrollTotp();
    const code = authenticatorCode(enrolment.secret);
    await engram.auth.mfa.verifyTotp(enrolment.factorId, code);

    const device = createEngram(supabaseClient());
    await device.auth.signIn(account);
    const other = setup(device);
    await expect(
      new MutationObserver(other.queryClient, other.mutations.auth.mfa.completeSignIn()).mutate(code),
    ).rejects.toMatchObject({ code: "auth/session-expired", rule: "code_reused" });
    expect(await device.auth.getSession()).toBeNull();
  });

  test("deleting the account leaves no picture in storage and clears the cache", async () => {
    const { engram, account } = await signedIn("query-leaving");
    const { queryClient, queries, mutations } = setup(engram);
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4]);
    const path = await engram.storage.uploadAvatar(new Blob([png], { type: "image/png" }));
    await queryClient.fetchQuery(queries.profile.get());

    await new MutationObserver(queryClient, mutations.account.delete()).mutate();
    expect(queryClient.getQueryCache().getAll()).toEqual([]);
    const { data } = await adminClient().storage.from("avatars").list(account.id);
    expect(data?.map((file) => `${account.id}/${file.name}`) ?? []).not.toContain(path);
  });
});
