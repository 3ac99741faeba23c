/**
 * What PostgREST's schema cache knows, read from pg_catalog: relations of the
 * exposed schemas with columns and keys, foreign keys and functions. Reloaded
 * when a cheap catalog fingerprint changes, so DDL is seen without a restart.
 */
import type { Database } from "../database/types.js";
import { type DbConfig, dbConfigQuery, toDbConfig } from "./db-config.js";
import { type ViewQuery, withViewKeys } from "./view-keys.js";

export interface Column {
  /** attnum, to match view columns to their base columns. */
  num?: number;
  name: string;
  /** format_type, schema-qualified (introspected with an empty search_path). */
  type: string;
  /** pg_type.typcategory: A array, S string, U user (json/uuid), … */
  category: string;
  /** Base type name (typname), e.g. tsvector, jsonb. */
  typeName: string;
  hasDefault: boolean;
  defaultExpr: string | null;
}

export interface Relation {
  oid?: number;
  schema: string;
  name: string;
  kind: "table" | "view";
  columns: Column[];
  primaryKey: string[];
  /** Column sets of primary key and unique constraints (for one-to-one detection). */
  uniques: string[][];
  /** Computed fields: functions taking this relation's row and returning one value. */
  computed?: Record<string, DbFunction>;
}

export interface ForeignKey {
  name: string;
  schema: string;
  table: string;
  columns: string[];
  targetSchema: string;
  targetTable: string;
  targetColumns: string[];
}

export interface FunctionArg {
  /** The table or view whose row type the argument is, if any (computed fields). */
  relation?: { schema: string; name: string } | null;
  name: string;
  type: string;
  typeName: string;
  /** i in, o out, b inout, v variadic, t table column. */
  mode: string;
}

export interface DbFunction {
  /** The function's catalog identity. */
  oid: number;
  schema: string;
  name: string;
  args: FunctionArg[];
  /** How many trailing input arguments have defaults. */
  defaults: number;
  returnsSet: boolean;
  /** pg_proc.prorows: `rows 1` makes a set-returning computed relationship to-one. */
  rows: number;
  returnType: string;
  /** pg_type.typtype of the return type: b base, c composite, p pseudo (void, record), e enum, d domain. */
  returnKind: string;
  /** The table or view whose row type the function returns, if any. */
  returnRelation: { schema: string; name: string } | null;
  volatility: "i" | "s" | "v";
  /** Served under /rpc: PostgREST leaves out functions of other unnamed parameters (computed fields keep them). */
  callable: boolean;
  /** `alter function … set statement_timeout`, which PostgREST hoists into the transaction (db-hoisted-tx-settings). */
  statementTimeout: string | null;
}

export interface SchemaCache {
  /** The in-database PostgREST settings, read with the catalog. */
  config: DbConfig;
  relations: Relation[];
  foreignKeys: ForeignKey[];
  functions: DbFunction[];
}

const introspection = `
with rels as (
  select c.oid, n.nspname, c.relname, c.relkind
  from pg_class c join pg_namespace n on n.oid = c.relnamespace
  where n.nspname = any($1) and c.relkind in ('r', 'v', 'm', 'f', 'p')
), keys as (
  select con.oid, con.conrelid, con.contype, con.conname, con.confrelid,
    array(select a.attname::text from unnest(con.conkey) with ordinality k(num, ord)
          join pg_attribute a on a.attrelid = con.conrelid and a.attnum = k.num order by k.ord) as cols,
    array(select a.attname::text from unnest(con.confkey) with ordinality k(num, ord)
          join pg_attribute a on a.attrelid = con.confrelid and a.attnum = k.num order by k.ord) as fcols
  from pg_constraint con where con.contype in ('p', 'u', 'f')
)
select json_build_object(
  'relations', (select coalesce(json_agg(json_build_object(
      'oid', r.oid::int8, 'schema', r.nspname, 'name', r.relname,
      'kind', case when r.relkind in ('v', 'm') then 'view' else 'table' end,
      'columns', (select coalesce(json_agg(json_build_object(
          'num', a.attnum, 'name', a.attname, 'type', format_type(a.atttypid, a.atttypmod), 'category', t.typcategory,
          'typeName', t.typname, 'hasDefault', a.atthasdef or a.attidentity <> '',
          -- An identity column's default is its sequence, as PostgREST's schema cache reads it.
          'defaultExpr', coalesce(pg_get_expr(d.adbin, d.adrelid), case when a.attidentity = 'd' then
            format('nextval(%L)', pg_get_serial_sequence(format('%I.%I', r.nspname, r.relname), a.attname)) end)
        ) order by a.attnum), '[]')
        from pg_attribute a join pg_type t on t.oid = a.atttypid
        left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
        where a.attrelid = r.oid and a.attnum > 0 and not a.attisdropped),
      'primaryKey', coalesce((select to_json(k.cols) from keys k where k.conrelid = r.oid and k.contype = 'p'), '[]'),
      'uniques', (select coalesce(json_agg(k.cols), '[]') from keys k where k.conrelid = r.oid and k.contype in ('p', 'u'))
    )), '[]') from rels r),
  'viewQueries', (select coalesce(json_agg(json_build_object('oid', r.oid::int8, 'tree', rw.ev_action::text)), '[]')
    from rels r join pg_rewrite rw on rw.ev_class = r.oid and rw.rulename = '_RETURN' where r.relkind in ('v', 'm')),
  'foreignKeys', (select coalesce(json_agg(json_build_object(
      'name', k.conname, 'schema', sn.nspname, 'table', sc.relname, 'columns', k.cols,
      'targetSchema', tn.nspname, 'targetTable', tc.relname, 'targetColumns', k.fcols
    )), '[]')
    from keys k join pg_class sc on sc.oid = k.conrelid join pg_namespace sn on sn.oid = sc.relnamespace
    join pg_class tc on tc.oid = k.confrelid join pg_namespace tn on tn.oid = tc.relnamespace
    where k.contype = 'f' and sn.nspname = any($1) and tn.nspname = any($1)),
  'functions', (select coalesce(json_agg(json_build_object(
      'oid', p.oid::int8, 'schema', n.nspname, 'name', p.proname,
      'args', (select coalesce(json_agg(json_build_object(
          'name', coalesce(p.proargnames[i], ''), 'type', format_type(types[i], null),
          'typeName', (select typname from pg_type where oid = types[i]), 'mode', coalesce(p.proargmodes[i], 'i'),
          'relation', (select json_build_object('schema', an.nspname, 'name', ac.relname) from pg_type at
            join pg_class ac on ac.oid = at.typrelid join pg_namespace an on an.oid = ac.relnamespace where at.oid = types[i])
        ) order by i), '[]') from generate_subscripts(types, 1) i),
      'defaults', p.pronargdefaults, 'returnsSet', p.proretset, 'rows', p.prorows,
      'returnType', format_type(p.prorettype, null), 'returnKind', rt.typtype,
      'returnRelation', (select json_build_object('schema', rn.nspname, 'name', rc.relname)
        from pg_class rc join pg_namespace rn on rn.oid = rc.relnamespace where rc.oid = rt.typrelid),
      'volatility', p.provolatile,
      -- PostgREST's callable: every parameter named (the catalog then keeps names, '' for
      -- the unnamed), or one unnamed parameter of a type a raw body can be.
      'callable', p.proargnames is not null or p.pronargs = 0
        or (p.pronargs = 1 and p.proargtypes[0] in ('bytea'::regtype, 'json'::regtype, 'jsonb'::regtype,
          'text'::regtype, 'xml'::regtype)),
      'statementTimeout', (select substr(setting, length('statement_timeout=') + 1)
        from unnest(p.proconfig) as setting where left(setting, 18) = 'statement_timeout=')
    )), '[]')
    from pg_proc p join pg_namespace n on n.oid = p.pronamespace join pg_type rt on rt.oid = p.prorettype
    cross join lateral (select coalesce(p.proallargtypes, array(select unnest(p.proargtypes::oid[]))) as types) ty
    where n.nspname = any($1) and p.prokind = 'f')
)::text as cache`;

// Any DDL touching relations, columns, constraints or functions, or a role setting, changes a count or an xmin here.
const fingerprintQuery = `select concat_ws(':',
  (select count(*) || '.' || sum(xmin::text::int8) from pg_class),
  (select count(*) || '.' || sum(xmin::text::int8) from pg_attribute),
  (select count(*) || '.' || sum(xmin::text::int8) from pg_constraint),
  (select count(*) || '.' || sum(xmin::text::int8) from pg_proc),
  (select count(*) || '.' || coalesce(sum(xmin::text::int8), 0) from pg_db_role_setting)) as fingerprint`;

/**
 * Holds the current cache. Comparing the catalog fingerprint costs a scan of
 * the catalogs, so it is done at most once per `checkEveryMs`; a request that
 * fails on a missing table, column or function calls `reload()` and retries,
 * so DDL is seen at once without paying for the check on every request.
 */
export class SchemaCacheLoader {
  private current: { fingerprint: string; cache: SchemaCache; checkedAt: number } | null = null;
  private loading: Promise<SchemaCache> | null = null;

  constructor(
    private readonly db: Database,
    private readonly schemas: string[],
    private readonly checkEveryMs = 1000,
  ) {}

  /** The cache, re-checked against the catalog if the last check is older than `checkEveryMs`. */
  async get(): Promise<SchemaCache> {
    if (this.current && Date.now() - this.current.checkedAt < this.checkEveryMs) return this.current.cache;
    return this.reload();
  }

  /** Compares the fingerprint now and re-reads the catalog if it moved. */
  async reload(): Promise<SchemaCache> {
    if (this.loading) return this.loading;
    this.loading = this.refresh().finally(() => {
      this.loading = null;
    });
    return this.loading;
  }

  private async refresh(): Promise<SchemaCache> {
    const [row] = await this.db.query<{ fingerprint: string }>(fingerprintQuery);
    const fingerprint = row?.fingerprint ?? "";
    if (this.current?.fingerprint === fingerprint) {
      this.current.checkedAt = Date.now();
      return this.current.cache;
    }
    const cache = await this.db.transaction(async (tx) => {
      // An empty search_path makes format_type qualify every non-catalog type. The
      // query's estimated cost is far past jit_above_cost: on a server, compiling it
      // took 1.25 s of its 1.29 s.
      await tx.query("select set_config('search_path', '', true), set_config('jit', 'off', true)");
      const [result] = await tx.query<{ cache: string }>(introspection, [this.schemas]);
      const config = toDbConfig(await tx.query<{ key: string; value: string }>(dbConfigQuery));
      const catalog = JSON.parse(result?.cache ?? "{}") as Omit<SchemaCache, "config"> & { viewQueries: ViewQuery[] };
      return withComputedFields(withViewKeys({ ...catalog, config }));
    });
    this.current = { fingerprint, cache, checkedAt: Date.now() };
    return cache;
  }
}

export function findRelation(cache: SchemaCache, schema: string, name: string): Relation | undefined {
  return cache.relations.find((r) => r.schema === schema && r.name === name);
}

/** `full_name(users)` becomes a column-like field `full_name` of `users`, as in PostgREST. */
function withComputedFields(cache: SchemaCache): SchemaCache {
  for (const fn of cache.functions) {
    const inputs = fn.args.filter((a) => a.mode === "i" || a.mode === "b");
    const first = inputs[0];
    if (fn.returnsSet || !first?.relation || inputs.length - fn.defaults > 1) continue;
    const relation = findRelation(cache, first.relation.schema, first.relation.name);
    if (relation && relation.schema === fn.schema) relation.computed = { ...relation.computed, [fn.name]: fn };
  }
  return cache;
}
