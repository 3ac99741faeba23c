/**
 * The OAuth server's admin client API (`/admin/oauth/clients`), as GoTrue's
 * oauthserver package serves it when `[auth.oauth_server] enabled`: manual
 * registration, get, update, soft delete, list and secret regeneration. The
 * admin router's middleware has already checked the caller's service role.
 */
import { createHash, randomBytes, randomUUID } from "node:crypto";
import { Hono } from "hono";
import type { StackEnv } from "../gateway/gateway.js";
import { type Auth, isUuid, readBody } from "./context.js";
import { AuthError, badRequest } from "./errors.js";

interface ClientRow {
  id: string;
  client_secret_hash: string | null;
  registration_type: string;
  redirect_uris: string;
  grant_types: string;
  client_name: string | null;
  client_uri: string | null;
  logo_uri: string | null;
  created_at: Date;
  updated_at: Date;
  client_type: string;
  token_endpoint_auth_method: string | null;
}

const authMethods = ["none", "client_secret_basic", "client_secret_post"];
const invalid = (message: string) => badRequest("validation_failed", message);

function redirectUriProblem(uri: string): string | null {
  if (!uri) return "redirect URI cannot be empty";
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return "must have scheme and host";
  }
  const scheme = url.protocol.slice(0, -1);
  if (!url.host) return "must have scheme and host";
  if (["javascript", "data", "file", "vbscript", "about", "blob"].includes(scheme.toLowerCase())) {
    return `scheme '${scheme}' is not allowed for security reasons`;
  }
  if (scheme === "http" && !["localhost", "127.0.0.1", "[::1]"].includes(url.hostname)) {
    return "HTTP scheme only allowed for localhost";
  }
  if (url.hash) return "fragment not allowed in redirect URI";
  return null;
}

function checkRedirectUris(value: unknown, required: boolean): string[] {
  const uris = Array.isArray(value) ? value.map(String) : [];
  if (required && uris.length === 0) throw invalid("redirect_uris is required");
  if (uris.length === 0) throw invalid("redirect_uris cannot be empty");
  if (uris.length > 10) throw invalid("redirect_uris cannot exceed 10 items");
  for (const uri of uris) {
    const problem = redirectUriProblem(uri);
    if (problem) throw invalid(`invalid redirect_uri '${uri}': ${problem}`);
  }
  return uris;
}

function checkGrantTypes(value: unknown): string[] {
  const types = Array.isArray(value) ? value.map(String) : [];
  if (types.length === 0) throw invalid("grant_types cannot be empty");
  if (types.some((type) => type !== "authorization_code" && type !== "refresh_token")) {
    throw invalid("grant_types must only contain 'authorization_code' and/or 'refresh_token'");
  }
  return types;
}

function checkText(value: unknown, field: string, max: number, url: boolean): string {
  const text = typeof value === "string" ? value : "";
  if (text.length > max) throw invalid(`${field} cannot exceed ${max} characters`);
  if (url && text && !URL.canParse(text)) throw invalid(`${field} must be a valid URL`);
  return text;
}

const inferType = (method: string) => (method === "none" ? "public" : "confidential");

function newSecret(): { secret: string; hash: string } {
  const secret = randomBytes(32).toString("base64url");
  return { secret, hash: createHash("sha256").update(secret).digest("base64url") };
}

function clientJson(row: ClientRow, secret?: string) {
  const method = row.token_endpoint_auth_method || (row.client_type === "public" ? "none" : "client_secret_basic");
  return {
    client_id: row.id,
    ...(secret ? { client_secret: secret } : {}),
    client_type: row.client_type,
    redirect_uris: row.redirect_uris ? row.redirect_uris.split(",") : undefined,
    token_endpoint_auth_method: method,
    grant_types: row.grant_types ? row.grant_types.split(",") : undefined,
    response_types: ["code"],
    client_name: row.client_name || undefined,
    client_uri: row.client_uri || undefined,
    logo_uri: row.logo_uri || undefined,
    registration_type: row.registration_type,
    created_at: new Date(row.created_at).toISOString(),
    updated_at: new Date(row.updated_at).toISOString(),
  };
}

export function oauthClientRoutes(auth: Auth): Hono<StackEnv> {
  const app = new Hono<StackEnv>();
  const { stack } = auth;

  app.use("/admin/oauth/*", async (_c, next) => {
    if (!stack.config.auth.oauthServer?.enabled)
      throw new AuthError(404, "feature_disabled", "OAuth server is disabled");
    await next();
  });

  const load = async (id: string): Promise<ClientRow> => {
    if (!isUuid(id)) throw invalid("invalid client_id format");
    const [row] = await stack.db.query<ClientRow>(
      "select * from auth.oauth_clients where id = $1 and deleted_at is null",
      [id],
    );
    if (!row) throw new AuthError(404, "oauth_client_not_found", "OAuth client not found");
    return row;
  };

  app.post("/admin/oauth/clients", async (c) => {
    const body = await readBody(c);
    const redirectUris = checkRedirectUris(body.redirect_uris, true);
    const grantTypes =
      body.grant_types === undefined ? ["authorization_code", "refresh_token"] : checkGrantTypes(body.grant_types);
    const name = checkText(body.client_name, "client_name", 1024, false);
    const clientUri = checkText(body.client_uri, "client_uri", 2048, true);
    const logoUri = checkText(body.logo_uri, "logo_uri", 2048, true);
    const explicitType = typeof body.client_type === "string" ? body.client_type : "";
    const method = typeof body.token_endpoint_auth_method === "string" ? body.token_endpoint_auth_method : "";
    if (explicitType && explicitType !== "public" && explicitType !== "confidential") {
      throw invalid("client_type must be 'public' or 'confidential'");
    }
    if (method && !authMethods.includes(method)) {
      throw invalid(`token_endpoint_auth_method must be one of: [${authMethods.join(" ")}]`);
    }
    if (explicitType && method && explicitType !== inferType(method)) {
      throw invalid(
        `client_type '${explicitType}' is inconsistent with token_endpoint_auth_method '${method}' (expected client_type '${inferType(method)}')`,
      );
    }
    const clientType = explicitType || (method ? inferType(method) : "confidential");
    const secret = clientType === "confidential" ? newSecret() : null;
    const [row] = await stack.db.query<ClientRow>(
      `insert into auth.oauth_clients (id, client_secret_hash, registration_type, redirect_uris, grant_types,
         client_name, client_uri, logo_uri, client_type, token_endpoint_auth_method)
       values ($1, $2, 'manual', $3, $4, nullif($5, ''), nullif($6, ''), nullif($7, ''), $8, $9) returning *`,
      [
        randomUUID(),
        secret?.hash ?? null,
        redirectUris.join(","),
        grantTypes.join(","),
        name,
        clientUri,
        logoUri,
        clientType,
        method || (clientType === "public" ? "none" : "client_secret_basic"),
      ],
    );
    return c.json(clientJson(row as ClientRow, secret?.secret), 201);
  });

  app.get("/admin/oauth/clients", async (c) => {
    const rows = await stack.db.query<ClientRow>(
      "select * from auth.oauth_clients where deleted_at is null order by created_at desc",
    );
    return c.json(rows.length ? { clients: rows.map((row) => clientJson(row)) } : {});
  });

  app.get("/admin/oauth/clients/:id", async (c) => c.json(clientJson(await load(c.req.param("id")))));

  app.put("/admin/oauth/clients/:id", async (c) => {
    const client = await load(c.req.param("id"));
    const body = await readBody(c);
    const fields = [
      "redirect_uris",
      "grant_types",
      "client_name",
      "client_uri",
      "logo_uri",
      "token_endpoint_auth_method",
    ];
    if (fields.every((field) => body[field] === undefined || body[field] === null)) {
      throw invalid("No fields provided for update");
    }
    const set: Record<string, string> = {};
    if (body.redirect_uris != null) set.redirect_uris = checkRedirectUris(body.redirect_uris, false).join(",");
    if (body.grant_types != null) set.grant_types = checkGrantTypes(body.grant_types).join(",");
    if (body.client_name != null) set.client_name = checkText(body.client_name, "client_name", 1024, false);
    if (body.client_uri != null) set.client_uri = checkText(body.client_uri, "client_uri", 2048, true);
    if (body.logo_uri != null) set.logo_uri = checkText(body.logo_uri, "logo_uri", 2048, true);
    if (body.token_endpoint_auth_method != null) {
      const method = String(body.token_endpoint_auth_method);
      if (!authMethods.includes(method)) {
        throw invalid(`invalid token_endpoint_auth_method: must be one of [${authMethods.join(" ")}]`);
      }
      if (inferType(method) !== client.client_type) {
        const valid = client.client_type === "public" ? "[none]" : "[client_secret_basic client_secret_post]";
        throw invalid(
          `token_endpoint_auth_method '${method}' is not valid for client_type '${client.client_type}'; valid methods: ${valid}`,
        );
      }
      set.token_endpoint_auth_method = method;
    }
    const columns = Object.keys(set);
    const [row] = await stack.db.query<ClientRow>(
      `update auth.oauth_clients set ${columns.map((column, at) => `${column} = $${at + 2}`).join(", ")},
         updated_at = now() where id = $1 returning *`,
      [client.id, ...columns.map((column) => set[column])],
    );
    return c.json(clientJson(row as ClientRow));
  });

  app.delete("/admin/oauth/clients/:id", async (c) => {
    const client = await load(c.req.param("id"));
    await stack.db.query("update auth.oauth_clients set deleted_at = now(), updated_at = now() where id = $1", [
      client.id,
    ]);
    return c.body(null, 204);
  });

  app.post("/admin/oauth/clients/:id/regenerate_secret", async (c) => {
    const client = await load(c.req.param("id"));
    if (client.client_type !== "confidential") throw invalid("Cannot regenerate secret for public client");
    const { secret, hash } = newSecret();
    const [row] = await stack.db.query<ClientRow>(
      "update auth.oauth_clients set client_secret_hash = $2, updated_at = now() where id = $1 returning *",
      [client.id, hash],
    );
    return c.json(clientJson(row as ClientRow, secret));
  });

  return app;
}
