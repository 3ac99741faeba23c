import { afterAll, beforeAll, expect, test } from "vitest";
import { openPglite } from "../database/pglite.js";
import type { Database } from "../database/types.js";
import { generateDatabaseTypes } from "./database-types.js";

let db: Database;
beforeAll(async () => {
  db = await openPglite();
  await db.exec(`
    create type public.mood as enum ('happy', 'sad');
    create table public.things (
      id bigint generated always as identity primary key,
      name text not null,
      tags text[],
      mood public.mood not null default 'happy'
    );
    create schema hidden;
    create table hidden.secrets (id int primary key);
    create function public.count_things(min_id bigint) returns integer language sql stable
      as 'select count(*)::int from public.things where id >= min_id';
  `);
});
afterAll(() => db.close());

test("tables become Row, Insert and Update types with defaults optional and identities not insertable", async () => {
  const types = await generateDatabaseTypes(db);
  expect(types).toContain("export type Database = {");
  expect(types).toMatch(
    /things: \{\n\s+Row: \{\n\s+id: number\n\s+mood: Database\["public"\]\["Enums"\]\["mood"\]\n\s+name: string\n\s+tags: string\[\] \| null/,
  );
  expect(types).toMatch(
    /Insert: \{\n\s+id\?: never\n\s+mood\?: Database\["public"\]\["Enums"\]\["mood"\]\n\s+name: string/,
  );
});

test("enums and functions are described, with PostgREST 12 as the client's version", async () => {
  const types = await generateDatabaseTypes(db);
  expect(types).toContain('mood: "happy" | "sad"');
  expect(types).toMatch(/count_things: \{ Args: \{ min_id: number \}; Returns: number \}/);
  expect(types).toContain('PostgrestVersion: "12"');
});

test("only the requested schemas are described", async () => {
  expect(await generateDatabaseTypes(db)).not.toContain("secrets");
  expect(await generateDatabaseTypes(db, { schemas: ["public", "hidden"] })).toContain("secrets");
});
