import type { Row } from './city-rows'

/** D1 refuses statements over 100 KB; stay well under. */
const MAX_STATEMENT_BYTES = 90_000

export function sqlLiteral(value: string | number | null): string {
  if (value === null) return 'NULL'
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error(`not a finite number: ${value}`)
    return String(value)
  }
  return `'${value.replaceAll("'", "''")}'`
}

/** Multi-row INSERTs of `rows`, each statement under D1's size limit. */
export function* insertStatements(table: string, rows: readonly Row[]): Generator<string> {
  const first = rows[0]
  if (!first) return
  const columns = Object.keys(first)
  const head = `INSERT INTO ${table} (${columns.join(', ')}) VALUES `
  let values: string[] = []
  let bytes = head.length
  for (const row of rows) {
    const tuple = `(${columns.map((c) => sqlLiteral(row[c] ?? null)).join(', ')})`
    if (values.length && bytes + tuple.length + 1 > MAX_STATEMENT_BYTES) {
      yield head + values.join(',')
      values = []
      bytes = head.length
    }
    values.push(tuple)
    bytes += tuple.length + 1
  }
  if (values.length) yield head + values.join(',')
}
