/** A figure, alone or with its unit: columns of these are right-aligned. */
const FIGURE = /^(–|[0-9][0-9.,]*( ?(KB|ms|×))?)$/

/** A Markdown table, its columns padded so that it also reads as plain text. */
export function markdownTable(head: string[], rows: (string | number)[][]): string {
  const body = rows.map((r) => r.map(String))
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((r) => r[i]?.length ?? 0)))
  const right = head.map((_, i) => i > 0 && body.every((r) => FIGURE.test(r[i] ?? '')))
  const line = (r: string[]) =>
    `| ${r.map((c, i) => (right[i] ? c.padStart(widths[i] ?? 0) : c.padEnd(widths[i] ?? 0))).join(' | ')} |`
  const rule = widths.map((w, i) => `-${'-'.repeat(w)}${right[i] ? ':' : '-'}`)
  return [line(head), `|${rule.join('|')}|`, ...body.map(line)].join('\n')
}
