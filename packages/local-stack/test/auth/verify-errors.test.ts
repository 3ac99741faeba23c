import { describe, expect, it } from "vitest";
import { clientFor, stackPerFile } from "../support/stack.js";
import { lastEmail, uniqueEmail } from "./helpers.js";

const stack = stackPerFile();
const password = "correct horse battery";

async function userWithCode() {
  const email = uniqueEmail("verify");
  await clientFor(stack, stack.serviceRoleKey).auth.admin.createUser({ email, password, email_confirm: true });
  await clientFor(stack).auth.signInWithOtp({ email });
  const mail = await lastEmail(stack, email);
  return { email, otp: mail.otp, tokenHash: new URL(mail.link).searchParams.get("token") ?? "" };
}

describe("verifyOtp errors, in GoTrue's words", () => {
  it("a wrong code is 'Token has expired or is invalid', a wrong token hash 'Email link is invalid or has expired'", async () => {
    const { email, otp } = await userWithCode();
    const wrong = otp === "000000" ? "111111" : "000000";
    const code = await clientFor(stack).auth.verifyOtp({ email, token: wrong, type: "email" });
    expect(code.error).toMatchObject({ status: 403, code: "otp_expired", message: "Token has expired or is invalid" });
    const link = await clientFor(stack).auth.verifyOtp({ token_hash: "0".repeat(56), type: "magiclink" });
    expect(link.error).toMatchObject({
      status: 403,
      code: "otp_expired",
      message: "Email link is invalid or has expired",
    });
  });

  it("a malformed address is 422 'Invalid email format'", async () => {
    const { error } = await clientFor(stack).auth.verifyOtp({
      email: "not an address",
      token: "123456",
      type: "email",
    });
    expect(error).toMatchObject({ status: 422, code: "validation_failed", message: "Invalid email format" });
  });

  it("a phone code finds no user and is otp_expired, not a validation error", async () => {
    const { error } = await clientFor(stack).auth.verifyOtp({ phone: "+15555550100", token: "123456", type: "sms" });
    expect(error).toMatchObject({ status: 403, code: "otp_expired", message: "Token has expired or is invalid" });
  });

  it("a phone that is not E.164 is 400 'Invalid phone number format (E.164 required)'", async () => {
    const { error } = await clientFor(stack).auth.verifyOtp({
      phone: "+15555550100-invalid",
      token: "123456",
      type: "sms",
    });
    expect(error).toMatchObject({
      status: 400,
      code: "validation_failed",
      message: "Invalid phone number format (E.164 required)",
    });
  });

  it("a token hash of a type no email carries is 'Invalid email verification type'", async () => {
    const { tokenHash } = await userWithCode();
    const { error } = await clientFor(stack).auth.verifyOtp({ token_hash: tokenHash, type: "sms" as "email" });
    expect(error).toMatchObject({ status: 400, code: "validation_failed", message: "Invalid email verification type" });
  });

  it("a banned user's valid code is user_banned and signs nobody in", async () => {
    const { email, otp } = await userWithCode();
    const admin = clientFor(stack, stack.serviceRoleKey).auth.admin;
    const { data } = await admin.listUsers({ perPage: 1000 });
    const id = data.users.find((user) => user.email === email)?.id ?? "";
    await admin.updateUserById(id, { ban_duration: "1h" });
    const { data: verified, error } = await clientFor(stack).auth.verifyOtp({ email, token: otp, type: "email" });
    expect(error).toMatchObject({ status: 403, code: "user_banned", message: "User is banned" });
    expect(verified.session).toBeNull();
  });

  it("a link without a type or token answers GoTrue's JSON validation error instead of redirecting", async () => {
    const response = await fetch(`${stack.url}/auth/v1/verify?token=abc`, {
      headers: { apikey: stack.anonKey },
      redirect: "manual",
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ msg: "Verify requires a verification type" });
  });
});
