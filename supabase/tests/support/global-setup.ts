import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openPglite, openPostgres, prepareDatabase } from "@engram/local-stack";
import type { TestProject } from "vitest/node";
import { supabaseDir } from "./paths.js";

declare module "vitest" {
  export interface ProvidedContext {
    /** PGlite: a data directory tarball with platform, migrations and seed applied. */
    pgliteTemplate: string;
    /** PostgreSQL: a template database with the same, when DATABASE_URL is set. */
    postgresTemplate: string;
  }
}

/**
 * Prepares the database once for the whole run; each test file then starts
 * from a copy of it (a PGlite data dir tarball, or a PostgreSQL template db).
 */
export default async function setup(project: TestProject) {
  const url = process.env.DATABASE_URL;
  if (url) {
    const name = `engram_template_${process.pid}`;
    const admin = openPostgres({ connectionString: url, max: 1 });
    await admin.exec(`drop database if exists ${name}`);
    await admin.exec(`create database ${name}`);
    const db = openPostgres({ connectionString: withDatabase(url, name), max: 1 });
    await prepareDatabase(db, { supabaseDir, seed: true, exposeNewTables: false });
    await db.close();
    project.provide("postgresTemplate", name);
    project.provide("pgliteTemplate", "");
    return async () => {
      await admin.exec(`drop database if exists ${name}`);
      await admin.close();
    };
  }
  const dir = await mkdtemp(join(tmpdir(), "engram-db-"));
  const db = await openPglite();
  await prepareDatabase(db, { supabaseDir, seed: true, exposeNewTables: false });
  const file = join(dir, "template.tar.gz");
  await writeFile(file, Buffer.from(await (await db.pglite.dumpDataDir("gzip")).arrayBuffer()));
  await db.close();
  project.provide("pgliteTemplate", file);
  project.provide("postgresTemplate", "");
  return () => rm(dir, { recursive: true, force: true });
}

export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}
