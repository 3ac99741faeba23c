import { createBrowserClient, createServerClient } from "@supabase/ssr";
import WebSocket from "ws";
import type { RunningStack } from "../../src/server.js";

/** The newest email to an address, with its first link and its OTP. */
export async function lastEmail(stack: RunningStack, to: string) {
  const base = `${stack.url}/mailbox/api/v1/mailbox/${encodeURIComponent(to)}`;
  const list = (await (await fetch(base)).json()) as { id: string }[];
  if (!list[0]) throw new Error(`no email to ${to}`);
  const detail = (await (await fetch(`${base}/${list[0].id}`)).json()) as {
    subject: string;
    body: { html: string; text: string };
  };
  const message = { subject: detail.subject, html: detail.body.html, text: detail.body.text };
  const link = /href="([^"]+)"/.exec(message.html)?.[1]?.replaceAll("&#38;", "&");
  const otp = /code: (\d+)/.exec(message.text)?.[1];
  return { ...message, link: link ?? "", otp: otp ?? "", count: list.length };
}

/** Opens a link as a browser would, without following the redirect. */
export async function follow(link: string) {
  const response = await fetch(link, { redirect: "manual" });
  const location = response.headers.get("location") ?? "";
  const url = new URL(location);
  return {
    status: response.status,
    location,
    query: Object.fromEntries(url.searchParams),
    fragment: Object.fromEntries(new URLSearchParams(url.hash.slice(1))),
  };
}

let counter = 0;
export const uniqueEmail = (prefix = "user") => `${prefix}-${Date.now()}-${++counter}@example.test`;

export function decodeJwt(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split(".")[1] ?? "", "base64url").toString()) as Record<string, unknown>;
}

/** An in-memory cookie jar with the `getAll`/`setAll` pair @supabase/ssr wants. */
export function cookieJar() {
  const cookies = new Map<string, string>();
  const writes: { name: string; value: string; options: Record<string, unknown> }[] = [];
  return {
    cookies,
    writes,
    methods: {
      getAll: () => [...cookies].map(([name, value]) => ({ name, value })),
      setAll: (list: { name: string; value: string; options: Record<string, unknown> }[]) => {
        for (const cookie of list) {
          writes.push(cookie);
          if (cookie.options.maxAge === 0 || cookie.value === "") cookies.delete(cookie.name);
          else cookies.set(cookie.name, cookie.value);
        }
      },
    },
  };
}

export function serverClient(stack: RunningStack, jar: ReturnType<typeof cookieJar>) {
  return createServerClient(stack.url, stack.anonKey, {
    cookies: jar.methods,
    realtime: { transport: WebSocket as never },
  });
}

export function browserClient(stack: RunningStack, jar: ReturnType<typeof cookieJar>) {
  return createBrowserClient(stack.url, stack.anonKey, {
    cookies: jar.methods,
    isSingleton: false,
    auth: { detectSessionInUrl: false, autoRefreshToken: false },
    realtime: { transport: WebSocket as never },
  });
}
