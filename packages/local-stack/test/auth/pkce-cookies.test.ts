import { describe, expect, it } from "vitest";
import { clientFor, stackPerFile } from "../support/stack.js";
import { browserClient, cookieJar, decodeJwt, follow, lastEmail, serverClient, uniqueEmail } from "./helpers.js";

const stack = stackPerFile();

const password = "correct horse battery";
const callback = "http://127.0.0.1:3000/auth/callback";

const decodeCookie = (value: string) => JSON.parse(Buffer.from(value.replace(/^base64-/, ""), "base64url").toString());

/** Starts a PKCE signup with a server client and returns the jar and the `code` the emailed link redirects to. */
async function signupCode(data: Record<string, unknown> = {}) {
  const jar = cookieJar();
  const email = uniqueEmail();
  const { error } = await serverClient(stack, jar).auth.signUp({
    email,
    password,
    options: { emailRedirectTo: callback, data },
  });
  expect(error).toBeNull();
  const { link } = await lastEmail(stack, email);
  const redirect = await follow(link);
  return { jar, email, link, redirect, code: redirect.query.code ?? "" };
}

describe("PKCE with @supabase/ssr cookies", () => {
  it("stores the code verifier as base64- cookies and sends an s256 challenge", async () => {
    const jar = cookieJar();
    const email = uniqueEmail();
    await serverClient(stack, jar).auth.signUp({ email, password, options: { emailRedirectTo: callback } });
    const verifier = jar.cookies.get("sb-127-auth-token-code-verifier") ?? "";
    expect(verifier.startsWith("base64-")).toBe(true);
    expect(decodeCookie(verifier)).toMatch(/^[0-9a-f]{112}$/);
    const [flow] = await stack.stack.db.query<{ code_challenge_method: string; authentication_method: string }>(
      "select f.code_challenge_method, f.authentication_method from auth.flow_state f join auth.users u on u.id = f.user_id where u.email = $1",
      [email],
    );
    expect(flow).toEqual({ code_challenge_method: "s256", authentication_method: "email/signup" });
    const { link } = await lastEmail(stack, email);
    expect(new URL(link).searchParams.get("token")).toMatch(/^pkce_[0-9a-f]{56}$/);
  });

  it("confirms by link, redirects with ?code= and exchanges it into the sb-127-auth-token cookie", async () => {
    const { jar, email, redirect, code } = await signupCode();
    expect(redirect.status).toBe(303);
    expect(redirect.location.startsWith(`${callback}?code=`)).toBe(true);
    expect(code).toMatch(/^[0-9a-f-]{36}$/);
    const { data, error } = await serverClient(stack, jar).auth.exchangeCodeForSession(code);
    expect(error).toBeNull();
    expect(data.user?.email).toBe(email);
    expect(data.session?.refresh_token).toMatch(/^[a-z2-7]{12}$/);
    const cookie = jar.cookies.get("sb-127-auth-token") ?? "";
    expect(cookie.startsWith("base64-")).toBe(true);
    expect(decodeCookie(cookie)).toMatchObject({ access_token: data.session?.access_token, token_type: "bearer" });
    expect(decodeJwt(data.session?.access_token ?? "").amr).toEqual([
      { method: "email/signup", timestamp: expect.any(Number) },
    ]);
    const write = jar.writes.find((w) => w.name === "sb-127-auth-token");
    expect(write?.options).toMatchObject({ path: "/", sameSite: "lax", httpOnly: false, maxAge: 34560000 });
    // A later request's server client reads the session from the cookies and the server vouches for it.
    const { data: user } = await serverClient(stack, jar).auth.getUser();
    expect(user.user?.email).toBe(email);
  });

  it("chunks a large session into .0 and .1 cookies of at most 3180 characters", async () => {
    const { jar, code } = await signupCode({ bio: "x".repeat(2500) });
    const { error } = await serverClient(stack, jar).auth.exchangeCodeForSession(code);
    expect(error).toBeNull();
    expect(jar.cookies.has("sb-127-auth-token")).toBe(false);
    const chunks: string[] = [];
    for (let i = 0; jar.cookies.has(`sb-127-auth-token.${i}`); i++)
      chunks.push(jar.cookies.get(`sb-127-auth-token.${i}`) ?? "");
    expect(chunks.length).toBeGreaterThanOrEqual(2);
    expect(chunks[0]?.length).toBe(3180);
    for (const chunk of chunks) expect(chunk.length).toBeLessThanOrEqual(3180);
    expect(decodeCookie(chunks.join("")).user.user_metadata.bio).toHaveLength(2500);
    const { data } = await serverClient(stack, jar).auth.getUser();
    expect(data.user?.user_metadata.bio).toHaveLength(2500);
  });

  it("rejects a verifier that does not match the challenge as bad_code_verifier", async () => {
    const { code } = await signupCode();
    const other = cookieJar();
    await serverClient(stack, other).auth.signInWithOtp({
      email: uniqueEmail(),
      options: { emailRedirectTo: callback },
    });
    const { error } = await serverClient(stack, other).auth.exchangeCodeForSession(code);
    expect(error?.status).toBe(400);
    expect(error?.code).toBe("bad_code_verifier");
  });

  it("rejects a code used twice as flow_state_not_found", async () => {
    const { jar, code } = await signupCode();
    const copy = cookieJar();
    for (const [name, value] of jar.cookies) copy.cookies.set(name, value);
    expect((await serverClient(stack, jar).auth.exchangeCodeForSession(code)).error).toBeNull();
    const { error } = await serverClient(stack, copy).auth.exchangeCodeForSession(code);
    expect(error?.status).toBe(404);
    expect(error?.code).toBe("flow_state_not_found");
  });

  it("rejects a code whose flow is older than five minutes as flow_state_expired", async () => {
    const { jar, code } = await signupCode();
    await stack.stack.db.query(
      "update auth.flow_state set created_at = now() - interval '6 minutes' where auth_code = $1",
      [code],
    );
    const { error } = await serverClient(stack, jar).auth.exchangeCodeForSession(code);
    expect(error?.status).toBe(422);
    expect(error?.code).toBe("flow_state_expired");
  });

  it("signs in with a magic link through the browser client and pkce", async () => {
    const email = uniqueEmail();
    await clientFor(stack, stack.serviceRoleKey).auth.admin.createUser({ email, password, email_confirm: true });
    const jar = cookieJar();
    const { error } = await browserClient(stack, jar).auth.signInWithOtp({
      email,
      options: { emailRedirectTo: callback, shouldCreateUser: false },
    });
    expect(error).toBeNull();
    const mail = await lastEmail(stack, email);
    expect(mail.subject).toBe("Your Magic Link");
    const redirect = await follow(mail.link);
    expect(redirect.query.code).toBeTruthy();
    const exchanged = await browserClient(stack, jar).auth.exchangeCodeForSession(redirect.query.code ?? "");
    expect(exchanged.error).toBeNull();
    expect(decodeJwt(exchanged.data.session?.access_token ?? "").amr).toEqual([
      { method: "magiclink", timestamp: expect.any(Number) },
    ]);
    const session = await browserClient(stack, jar).auth.getSession();
    expect(session.data.session?.user.email).toBe(email);
  });

  it("recovers a password: recovery link → code → PASSWORD_RECOVERY session → new password", async () => {
    const email = uniqueEmail();
    await clientFor(stack, stack.serviceRoleKey).auth.admin.createUser({ email, password, email_confirm: true });
    const jar = cookieJar();
    expect(
      (await serverClient(stack, jar).auth.resetPasswordForEmail(email, { redirectTo: callback })).error,
    ).toBeNull();
    const mail = await lastEmail(stack, email);
    expect(mail.subject).toBe("Reset Your Password");
    const redirect = await follow(mail.link);
    const client = serverClient(stack, jar);
    const events: string[] = [];
    client.auth.onAuthStateChange((event) => {
      events.push(event);
    });
    const { data, error } = await client.auth.exchangeCodeForSession(redirect.query.code ?? "");
    expect(error).toBeNull();
    expect((data as { redirectType?: string }).redirectType).toBe("recovery");
    expect(events).toContain("PASSWORD_RECOVERY");
    expect((await client.auth.updateUser({ password: "my new password!" })).error).toBeNull();
    const signIn = await clientFor(stack).auth.signInWithPassword({ email, password: "my new password!" });
    expect(signIn.error).toBeNull();
  });

  it("confirms on the server with verifyOtp({ token_hash }) and writes the session cookie", async () => {
    const email = uniqueEmail();
    await clientFor(stack, stack.serviceRoleKey).auth.admin.createUser({ email, password, email_confirm: true });
    const jar = cookieJar();
    await serverClient(stack, jar).auth.signInWithOtp({ email, options: { emailRedirectTo: callback } });
    const tokenHash = new URL((await lastEmail(stack, email)).link).searchParams.get("token") ?? "";
    // An app's /auth/confirm route, as Supabase's SSR guide writes it.
    const { data, error } = await serverClient(stack, jar).auth.verifyOtp({ token_hash: tokenHash, type: "email" });
    expect(error).toBeNull();
    expect(data.session?.user.email).toBe(email);
    expect(decodeCookie(jar.cookies.get("sb-127-auth-token") ?? "").user.email).toBe(email);
  });

  it("reports an expired PKCE link in the redirect's query and fragment", async () => {
    const jar = cookieJar();
    const email = uniqueEmail();
    await serverClient(stack, jar).auth.signUp({ email, password, options: { emailRedirectTo: callback } });
    await stack.stack.db.query(
      "update auth.users set confirmation_sent_at = now() - interval '2 hours' where email = $1",
      [email],
    );
    const redirect = await follow((await lastEmail(stack, email)).link);
    expect(redirect.location.startsWith(callback)).toBe(true);
    expect(redirect.query).toMatchObject({ error_code: "otp_expired" });
    expect(redirect.fragment).toMatchObject({ error_code: "otp_expired" });
  });
});
