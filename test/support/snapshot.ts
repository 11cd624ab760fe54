// Every row of a D1 database and every entry of a KV namespace, taken and put back: the test
// catalog is imported once a run and each test file restores what it left (docs/testing.md).
// Rows travel as SQLite's own JSON text, so each value comes back with its type (an integer
// stays an integer, 4.0 stays real, -2^63 stays exact); a BLOB, which JSON cannot hold, fails
// the dump rather than changing.

/** A table's rows: its columns (with `rowid` first where it is not a column), pages of rows. */
export interface TableDump {
  table: string
  columns: string[]
  /** Each a JSON array of at most PAGE_ROWS rows, each row an array in `columns` order. */
  pages: string[]
}

export interface DatabaseDump {
  tables: TableDump[]
  /** sqlite_sequence's rows, as a JSON array of [name, seq]: AUTOINCREMENT's high marks. */
  sequences: string
}

/** A KV entry, its value in base64. */
export interface KvEntry {
  key: string
  value: string
  metadata: unknown
}

/** Rows a statement carries: a bound JSON text well under D1's 2 MB a value. */
const PAGE_ROWS = 1000

/** Tables that are D1's, SQLite's or the migrations' own record, never the catalog's. */
const OWN = "name NOT LIKE 'sqlite\\_%' ESCAPE '\\' AND name NOT LIKE '\\_cf\\_%' ESCAPE '\\'"

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`

async function tablesOf(db: D1Database): Promise<{ name: string; sql: string }[]> {
  const { results } = await db
    .prepare(
      `SELECT name, sql FROM sqlite_master
       WHERE type = 'table' AND ${OWN} AND name <> 'd1_migrations' ORDER BY rowid`,
    )
    .all<{ name: string; sql: string }>()
  return results
}

/** The columns to write back: every column, and `rowid` when the table has one no column names. */
async function columnsOf(db: D1Database, table: { name: string; sql: string }) {
  const { results } = await db
    .prepare('SELECT name, type, pk FROM pragma_table_info(?) ORDER BY cid')
    .bind(table.name)
    .all<{ name: string; type: string; pk: number }>()
  const names = results.map((c) => c.name)
  const keys = results.filter((c) => c.pk > 0)
  const withoutRowid = /WITHOUT\s+ROWID\s*$/i.test(table.sql.trim())
  const rowidAlias = keys.length === 1 && keys[0]?.type.toUpperCase() === 'INTEGER'
  return withoutRowid || rowidAlias ? names : ['rowid', ...names]
}

async function dumpTable(db: D1Database, table: { name: string; sql: string }) {
  const columns = await columnsOf(db, table)
  const list = columns.map(quote).join(', ')
  const order = columns[0] === 'rowid' ? 'rowid' : list
  const { results } = await db
    .prepare(
      `SELECT json_group_array(json(row)) AS page FROM (
         SELECT json_array(${list}) AS row, (row_number() OVER (ORDER BY ${order}) - 1) / ${PAGE_ROWS} AS n
         FROM ${quote(table.name)} ORDER BY ${order})
       GROUP BY n ORDER BY n`,
    )
    .all<{ page: string }>()
  return { table: table.name, columns, pages: results.map((r) => r.page) }
}

/** Every row of every table of `db`, in a stable order (by rowid, else by every column). */
export async function dumpDatabase(db: D1Database): Promise<DatabaseDump> {
  const tables = await Promise.all((await tablesOf(db)).map((t) => dumpTable(db, t)))
  if (!(await hasSequences(db))) return { tables, sequences: '[]' }
  const sequences = await db
    .prepare(
      `SELECT json_group_array(json_array(name, seq)) AS rows
       FROM (SELECT name, seq FROM sqlite_sequence WHERE name IN (SELECT value FROM json_each(?))
             ORDER BY name)`,
    )
    .bind(JSON.stringify(tables.map((t) => t.table)))
    .first<{ rows: string }>()
  return { tables, sequences: sequences?.rows ?? '[]' }
}

/** Whether `db` has an AUTOINCREMENT table, so SQLite's table of their marks. */
async function hasSequences(db: D1Database): Promise<boolean> {
  const row = await db
    .prepare("SELECT 1 AS yes FROM sqlite_master WHERE name = 'sqlite_sequence'")
    .first<{ yes: number }>()
  return row !== null
}

/**
 * The statements that set the marks of `dump`'s tables to its own (none without such a table);
 * another table's, d1_migrations' in the pool, stays.
 */
async function sequenceStatements(db: D1Database, dump: DatabaseDump) {
  if (!(await hasSequences(db))) return []
  return [
    db
      .prepare('DELETE FROM sqlite_sequence WHERE name IN (SELECT value FROM json_each(?))')
      .bind(JSON.stringify(dump.tables.map((t) => t.table))),
    db
      .prepare(
        `INSERT INTO sqlite_sequence (name, seq)
         SELECT r.value ->> 0, r.value ->> 1 FROM json_each(?) AS r`,
      )
      .bind(dump.sequences),
  ]
}

const readJson = (columns: number) =>
  Array.from({ length: columns }, (_, i) => `r.value ->> ${i}`).join(', ')

/**
 * `db` holding exactly `dump`'s rows, in one batch (so one transaction): its triggers dropped
 * while the rows go in and then created again as they were (a restored row must not fire what
 * its import already did), every table of the dump emptied (the migrations' own rows too), the
 * rows written a page a statement, AUTOINCREMENT's marks set back.
 */
export async function restoreDatabase(db: D1Database, dump: DatabaseDump): Promise<void> {
  const { results: triggers } = await db
    .prepare("SELECT name, sql FROM sqlite_master WHERE type = 'trigger' ORDER BY rowid")
    .all<{ name: string; sql: string }>()
  const rows = dump.tables.flatMap(({ table, columns, pages }) =>
    pages.map((page) =>
      db
        .prepare(
          `INSERT INTO ${quote(table)} (${columns.map(quote).join(', ')})
           SELECT ${readJson(columns.length)} FROM json_each(?) AS r`,
        )
        .bind(page),
    ),
  )
  await db.batch([
    db.prepare('PRAGMA defer_foreign_keys = on'),
    ...triggers.map((t) => db.prepare(`DROP TRIGGER ${quote(t.name)}`)),
    ...dump.tables.map((t) => db.prepare(`DELETE FROM ${quote(t.table)}`)),
    ...rows,
    // After the rows: an insert moves a mark up to its own key, never down to the dump's.
    ...(await sequenceStatements(db, dump)),
    ...triggers.map((t) => db.prepare(t.sql)),
  ])
}

function toBase64(bytes: ArrayBuffer): string {
  let binary = ''
  for (const byte of new Uint8Array(bytes)) binary += String.fromCharCode(byte)
  return btoa(binary)
}

const fromBase64 = (text: string) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0))

/** Every entry of `kv`, by key. */
export async function dumpKv(kv: KVNamespace): Promise<KvEntry[]> {
  const entries: KvEntry[] = []
  for (let cursor: string | undefined; ;) {
    const page = await kv.list(cursor ? { cursor } : {})
    for (const { name } of page.keys) {
      const { value, metadata } = await kv.getWithMetadata(name, 'arrayBuffer')
      if (value) entries.push({ key: name, value: toBase64(value), metadata })
    }
    if (page.list_complete) return entries
    cursor = page.cursor
  }
}

/** `entries` written into `kv`, with their metadata. */
export async function restoreKv(kv: KVNamespace, entries: readonly KvEntry[]): Promise<void> {
  await Promise.all(
    entries.map((e) => kv.put(e.key, fromBase64(e.value), { metadata: e.metadata })),
  )
}
