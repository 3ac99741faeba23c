/**
 * Where auth's emails go instead of SMTP: kept in memory, printed to the
 * console, and readable over HTTP by recipient (see mail/routes.ts), like the
 * Supabase CLI's mail catcher.
 */
export interface Email {
  id: string;
  to: string;
  subject: string;
  /** The HTML body; links in it are what a person would click. */
  html: string;
  /** The plain-text body. */
  text: string;
  sentAt: Date;
}

export interface Mailbox {
  send(email: Omit<Email, "id" | "sentAt">): Email;
  /** A recipient's messages, newest first. */
  list(to: string): Email[];
  get(id: string): Email | undefined;
  clear(to?: string): void;
}

export function createMailbox(print: (line: string) => void = () => {}): Mailbox {
  const messages: Email[] = [];
  let counter = 0;
  return {
    send(email) {
      const stored: Email = { ...email, to: email.to.toLowerCase(), id: String(++counter), sentAt: new Date() };
      messages.push(stored);
      print(`mail to ${stored.to}: ${stored.subject}\n${stored.text}`);
      return stored;
    },
    list: (to) => messages.filter((m) => m.to === to.toLowerCase()).reverse(),
    get: (id) => messages.find((m) => m.id === id),
    clear(to) {
      for (let i = messages.length - 1; i >= 0; i--)
        if (!to || messages[i]?.to === to.toLowerCase()) messages.splice(i, 1);
    },
  };
}
