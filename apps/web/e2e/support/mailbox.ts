/** The stack's mail catcher, read over HTTP as a person would read their inbox. */
import { app } from "./browser.js";

interface MailSummary {
  id: string;
}

interface Mail {
  subject: string;
  body: { html: string; text: string };
}

const mailboxUrl = (to: string) => `${app().stackUrl}/mailbox/api/v1/mailbox/${encodeURIComponent(to)}`;

export async function countEmails(to: string): Promise<number> {
  const response = await fetch(mailboxUrl(to));
  return response.ok ? ((await response.json()) as MailSummary[]).length : 0;
}

/**
 * Waits for an email beyond the first `seen` ones and returns its subject,
 * first link (the one the email asks the reader to open) and its code.
 */
export async function nextEmail(
  to: string,
  seen = 0,
  timeoutMs = 10_000,
): Promise<{ subject: string; link: string; code: string }> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const response = await fetch(mailboxUrl(to));
    const list = response.ok ? ((await response.json()) as MailSummary[]) : [];
    if (list.length > seen) {
      // The mailbox lists the newest first.
      const newest = list[0] as MailSummary;
      const mail = (await (await fetch(`${mailboxUrl(to)}/${newest.id}`)).json()) as Mail;
      const href = /href="([^"]+)"/.exec(mail.body.html)?.[1] ?? "";
      // The one-time code the email offers beside its link.
      const code = /enter the code: (\d+)/i.exec(mail.body.text)?.[1] ?? "";
      return { subject: mail.subject, link: href.replaceAll("&#38;", "&").replaceAll("&amp;", "&"), code };
    }
    if (Date.now() > deadline) throw new Error(`no new email to ${to} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
