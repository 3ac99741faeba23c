import { Hono } from "hono";
import type { Mailbox } from "./mailbox.js";

/** The mailbox over HTTP, in the shape of Inbucket's API (the CLI's mail catcher). */
export function mailRoutes(mailbox: Mailbox): Hono {
  const app = new Hono();
  const summary = (m: ReturnType<Mailbox["list"]>[number]) => ({
    id: m.id,
    mailbox: m.to,
    to: [m.to],
    from: "Engram <noreply@engram.local>",
    subject: m.subject,
    date: m.sentAt.toISOString(),
    size: m.html.length,
  });
  app.get("/api/v1/mailbox/:name", (c) => c.json(mailbox.list(c.req.param("name")).map(summary)));
  app.get("/api/v1/mailbox/:name/:id", (c) => {
    const message = mailbox.get(c.req.param("id"));
    if (!message || message.to !== c.req.param("name").toLowerCase())
      return c.json({ error: "message not found" }, 404);
    return c.json({ ...summary(message), body: { text: message.text, html: message.html } });
  });
  app.delete("/api/v1/mailbox/:name", (c) => {
    mailbox.clear(c.req.param("name"));
    return c.body(null, 204);
  });
  return app;
}
