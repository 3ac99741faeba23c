import type { Database, Queryable } from "@engram/local-stack";

/**
 * A database's definitions as comparable text: one entry per object, keyed by
 * its kind and name, with everything about it that the database would behave
 * differently for (definition, owner, privileges, flags, comment). Objects
 * created by initdb are left out, and so are the local stack's bookkeeping
 * schemas; nothing depends on object ids, so two databases built differently
 * compare equal when their definitions are.
 */
export type Catalog = Map<string, string>;

const skippedSchemas = ["pg_catalog", "information_schema", "pg_toast", "_local_stack", "supabase_migrations"];

/** Privileges as a sorted list, a missing ACL read as the built-in default it stands for. */
const acl = (column: string, kind?: string, owner?: string) =>
  `(select coalesce(jsonb_agg(item order by item), '[]') from (
     select format('%s=%s%s/%s', case when a.grantee = 0 then 'PUBLIC' else a.grantee::regrole::text end,
       a.privilege_type, case when a.is_grantable then '*' else '' end, a.grantor::regrole) as item
     from aclexplode(${kind ? `coalesce(${column}, acldefault('${kind}', ${owner}))` : column}) a) items)`;

const userSchema = (column: string) =>
  `${column}::regnamespace::text <> all (array['${skippedSchemas.join("','")}']) and ${column}::regnamespace::text !~ '^pg_(temp|toast_temp)_'`;

/** One query per kind of object; each returns `key` and `value` (any JSON). */
const queries: Record<string, string> = {
  schema: `
    select n.nspname as key, jsonb_build_object('owner', n.nspowner::regrole, 'acl', ${acl("n.nspacl", "n", "n.nspowner")}) as value
    from pg_namespace n where (n.oid >= 16384 or n.nspname = 'public') and ${userSchema("n.oid")}`,

  relation: `
    select c.oid::regclass::text as key, jsonb_build_object(
      'kind', c.relkind, 'owner', c.relowner::regrole, 'persistence', c.relpersistence,
      'row_security', c.relrowsecurity, 'force_row_security', c.relforcerowsecurity,
      'replica_identity', c.relreplident, 'options', c.reloptions,
      'acl', ${acl("c.relacl", "r", "c.relowner")},
      'view', case when c.relkind in ('v', 'm') then pg_get_viewdef(c.oid) end) as value
    from pg_class c
    where c.relkind in ('r', 'p', 'v', 'm', 'S', 'f') and c.oid >= 16384 and ${userSchema("c.relnamespace")}`,

  column: `
    select format('%s.%I', c.oid::regclass, a.attname) as key, jsonb_build_object(
      'position', row_number() over (partition by c.oid order by a.attnum),
      'type', format_type(a.atttypid, a.atttypmod), 'not_null', a.attnotnull,
      'default', pg_get_expr(d.adbin, d.adrelid), 'generated', a.attgenerated, 'identity', a.attidentity,
      'collation', case when a.attcollation <> 0 then a.attcollation::regcollation::text end,
      'acl', ${acl("a.attacl")}) as value
    from pg_class c
    join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
    left join pg_attrdef d on d.adrelid = c.oid and d.adnum = a.attnum
    where c.relkind in ('r', 'p', 'v', 'm', 'f', 'c') and c.oid >= 16384 and ${userSchema("c.relnamespace")}`,

  type: `
    select t.oid::regtype::text as key, jsonb_build_object(
      'kind', t.typtype, 'owner', t.typowner::regrole, 'acl', ${acl("t.typacl", "T", "t.typowner")},
      'labels', (select jsonb_agg(e.enumlabel order by e.enumsortorder) from pg_enum e where e.enumtypid = t.oid),
      'base', case when t.typtype = 'd' then format_type(t.typbasetype, t.typtypmod) end,
      'not_null', t.typnotnull, 'default', t.typdefault) as value
    from pg_type t
    where t.oid >= 16384 and t.typtype in ('e', 'd', 'r', 'm', 'c') and ${userSchema("t.typnamespace")}
      and (t.typtype <> 'c' or (select c.relkind from pg_class c where c.oid = t.typrelid) = 'c')`,

  function: `
    select p.oid::regprocedure::text as key, jsonb_build_object(
      'owner', p.proowner::regrole,
      'security_definer', p.prosecdef, 'volatility', p.provolatile, 'config', p.proconfig,
      'acl', ${acl("p.proacl", "f", "p.proowner")},
      'definition', case when p.prokind in ('f', 'p', 'w') then pg_get_functiondef(p.oid) end) as value
    from pg_proc p where p.oid >= 16384 and ${userSchema("p.pronamespace")}`,

  policy: `
    select format('%I on %I.%I', p.policyname, p.schemaname, p.tablename) as key, jsonb_build_object(
      'permissive', p.permissive, 'roles', (select jsonb_agg(r order by r) from unnest(p.roles) r),
      'command', p.cmd, 'using', p.qual, 'with_check', p.with_check) as value
    from pg_policies p`,

  index: `
    select i.indexrelid::regclass::text as key, to_jsonb(pg_get_indexdef(i.indexrelid)) as value
    from pg_index i join pg_class c on c.oid = i.indexrelid
    where c.oid >= 16384 and ${userSchema("c.relnamespace")}`,

  constraint: `
    select format('%I on %s', c.conname,
             case when c.conrelid <> 0 then c.conrelid::regclass::text else c.contypid::regtype::text end) as key,
           jsonb_build_object('type', c.contype, 'definition', pg_get_constraintdef(c.oid),
             'deferrable', c.condeferrable, 'deferred', c.condeferred, 'validated', c.convalidated) as value
    from pg_constraint c where c.oid >= 16384 and ${userSchema("c.connamespace")}`,

  trigger: `
    select format('%I on %s', t.tgname, t.tgrelid::regclass) as key,
           jsonb_build_object('definition', pg_get_triggerdef(t.oid), 'enabled', t.tgenabled) as value
    from pg_trigger t join pg_class c on c.oid = t.tgrelid
    where not t.tgisinternal and t.oid >= 16384 and ${userSchema("c.relnamespace")}`,

  rule: `
    select format('%I on %s', r.rulename, r.ev_class::regclass) as key, to_jsonb(pg_get_ruledef(r.oid)) as value
    from pg_rewrite r join pg_class c on c.oid = r.ev_class
    where r.oid >= 16384 and r.rulename <> '_RETURN' and ${userSchema("c.relnamespace")}`,

  comment: `
    select format('%s %s', o.type, o.identity) as key, to_jsonb(d.description) as value
    from pg_description d cross join lateral pg_identify_object(d.classoid, d.objoid, d.objsubid) o
    where (d.objoid >= 16384 or o.type = 'schema' and o.identity = 'public') and coalesce(o.schema, '') <> all (array['${skippedSchemas.join("','")}'])
      and not (o.type = 'schema' and o.identity = any (array['${skippedSchemas.join("','")}']))`,

  "default privileges": `
    select format('%s in %s on %s', d.defaclrole::regrole,
             case when d.defaclnamespace = 0 then 'all schemas' else d.defaclnamespace::regnamespace::text end,
             d.defaclobjtype) as key,
           ${acl("d.defaclacl")} as value
    from pg_default_acl d`,

  publication: `
    select p.pubname as key, jsonb_build_object('all_tables', p.puballtables, 'insert', p.pubinsert,
      'update', p.pubupdate, 'delete', p.pubdelete, 'truncate', p.pubtruncate) as value
    from pg_publication p`,

  "publication table": `
    select format('%s in %s', r.prrelid::regclass, p.pubname) as key,
           jsonb_build_object('columns', r.prattrs::text, 'where', pg_get_expr(r.prqual, r.prrelid)) as value
    from pg_publication_rel r join pg_publication p on p.oid = r.prpubid`,

  extension: `
    select e.extname as key, jsonb_build_object('version', e.extversion, 'schema', e.extnamespace::regnamespace) as value
    from pg_extension e`,

  "storage bucket": `
    select b.id as key, to_jsonb(b) - 'created_at' - 'updated_at' as value from storage.buckets b`,
};

/** Reads the catalog of a database, in one transaction. */
export function catalogOf(db: Database): Promise<Catalog> {
  return db.transaction(readCatalog);
}

/**
 * Reads the catalog as `tx` sees it (inside a transaction: names are printed
 * schema-qualified for the rest of it).
 */
export async function readCatalog(tx: Queryable): Promise<Catalog> {
  await tx.exec("set local search_path = ''");
  const catalog: Catalog = new Map();
  for (const [kind, sql] of Object.entries(queries)) {
    const rows = await tx.query<{ key: string; value: unknown }>(sql);
    for (const row of rows) catalog.set(`${kind} ${row.key}`, JSON.stringify(row.value, null, 1));
  }
  return catalog;
}

export interface CatalogDifference {
  /** Kind and name, e.g. `function private.fail(text,text,text)`. */
  object: string;
  /** Each side's definition; undefined where the object does not exist. */
  sides: Record<string, string | undefined>;
}

/** Every object that is missing from one side or defined differently, in name order. */
export function compareCatalogs(sides: Record<string, Catalog>): CatalogDifference[] {
  const names = Object.keys(sides);
  const objects = new Set(Object.values(sides).flatMap((catalog) => [...catalog.keys()]));
  const differences: CatalogDifference[] = [];
  for (const object of [...objects].sort()) {
    const definitions = Object.fromEntries(names.map((name) => [name, sides[name]?.get(object)]));
    if (new Set(Object.values(definitions)).size > 1) differences.push({ object, sides: definitions });
  }
  return differences;
}

/**
 * The differences as text a person can act on: the object, the side that
 * lacks it, or each field defined differently with both sides' values.
 */
export function describeDifferences(differences: CatalogDifference[]): string {
  return differences.map(describeDifference).join("\n\n");
}

function describeDifference({ object, sides }: CatalogDifference): string {
  const names = Object.keys(sides);
  const present = names.filter((side) => sides[side] !== undefined);
  if (present.length < names.length) {
    return `${object}: only in ${present.join(", ")}\n${indent(show(JSON.parse(sides[present[0] ?? ""] ?? "null")), 2)}`;
  }
  const values = names.map((side) => JSON.parse(sides[side] ?? "null") as unknown);
  const fields = values.every(isObject)
    ? [...new Set(values.flatMap((value) => Object.keys(value)))].filter(
        (field) => new Set(values.map((value) => JSON.stringify(value[field]))).size > 1,
      )
    : [""];
  const lines = [`${object}: defined differently`];
  for (const field of fields) {
    if (field) lines.push(`  ${field}:`);
    names.forEach((side, i) => {
      const value = values[i];
      lines.push(`    ${side}:`, indent(show(field && isObject(value) ? value[field] : value), 6));
    });
  }
  return lines.join("\n");
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** A definition as written (a string as its own lines), anything else as compact JSON. */
const show = (value: unknown) => (typeof value === "string" ? value : JSON.stringify(value));

const indent = (text: string, by: number) =>
  text
    .split("\n")
    .map((line) => " ".repeat(by) + line)
    .join("\n");
