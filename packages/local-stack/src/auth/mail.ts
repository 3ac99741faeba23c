/** The auth emails (GoTrue's default templates), delivered to the stack's mailbox. */
import type { Stack } from "../stack.js";

export type EmailKind = "signup" | "invite" | "magiclink" | "recovery" | "email_change";

const subjects: Record<EmailKind, string> = {
  signup: "Confirm Your Signup",
  invite: "You have been invited",
  magiclink: "Your Magic Link",
  recovery: "Reset Your Password",
  email_change: "Confirm Email Change",
};

const actions: Record<EmailKind, string> = {
  signup: "Follow this link to confirm your user:",
  invite: "You have been invited to create a user. Follow this link to accept the invite:",
  magiclink: "Follow this link to login:",
  recovery: "Follow this link to reset the password for your user:",
  email_change: "Follow this link to confirm the update of your email:",
};

/** The reauthentication email carries only its code (GoTrue's default template has no link). */
export function sendReauthenticationEmail(stack: Stack, to: string, otp: string): void {
  const subject = "Confirm reauthentication";
  stack.mailbox.send({
    to,
    subject,
    html: `<h2>${subject}</h2>\n<p>Enter the code: ${otp}</p>`,
    text: `${subject}\n\nEnter the code: ${otp}\n`,
  });
}

/** `<url>/auth/v1/verify?token=<hash>&type=<type>&redirect_to=<url>`, the template's ConfirmationURL. */
export function verificationLink(stack: Stack, hash: string, type: EmailKind, redirectTo: string): string {
  const params = new URLSearchParams({ token: hash, type, redirect_to: redirectTo });
  return `${stack.url}/auth/v1/verify?${params}`;
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

export function sendAuthEmail(
  stack: Stack,
  kind: EmailKind,
  to: string,
  token: { otp: string; hash: string },
  redirectTo: string,
): void {
  const link = verificationLink(stack, token.hash, kind, redirectTo);
  const subject = subjects[kind];
  stack.mailbox.send({
    to,
    subject,
    html: `<h2>${subject}</h2>\n<p>${actions[kind]}</p>\n<p><a href="${escapeHtml(link)}">${subject}</a></p>\n<p>Alternatively, enter the code: ${token.otp}</p>`,
    text: `${subject}\n\n${actions[kind]}\n${link}\n\nAlternatively, enter the code: ${token.otp}\n`,
  });
}
