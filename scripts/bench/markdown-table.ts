/** A Markdown table, its columns padded so that it also reads as plain text: numbers right. */
export function markdownTable(head: string[], rows: (string | number)[][]): string {
  const cells = [head, ...rows].map((r) => r.map(String))
  const widths = head.map((_, i) => Math.max(...cells.map((r) => r[i]?.length ?? 0)))
  const line = (r: string[]) =>
    `| ${r.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join(' | ')} |`
  const rule = widths.map((w, i) => (i === 0 ? `-${'-'.repeat(w)}-` : `-${'-'.repeat(w)}:`))
  return [line(cells[0] ?? []), `|${rule.join('|')}|`, ...cells.slice(1).map(line)].join('\n')
}
