/** One line of a diff: kept, removed (only before) or added (only after). */
export interface DiffLine {
  kind: 'same' | 'removed' | 'added'
  text: string
}

/**
 * The lines of `after` against `before`, by their longest common subsequence: for the few dozen
 * lines of a flag document, where the table's size (lines squared) costs nothing.
 */
export function lineDiff(before: string, after: string): DiffLine[] {
  const a = before ? before.split('\n') : []
  const b = after ? after.split('\n') : []
  const width = b.length + 1
  // common[i * width + j]: the longest common subsequence of a[i..] and b[j..].
  const common = new Uint32Array((a.length + 1) * width)
  const at = (i: number, j: number) => common[i * width + j] ?? 0
  for (let i = a.length - 1; i >= 0; i--)
    for (let j = b.length - 1; j >= 0; j--)
      common[i * width + j] =
        a[i] === b[j] ? at(i + 1, j + 1) + 1 : Math.max(at(i + 1, j), at(i, j + 1))
  const out: DiffLine[] = []
  let i = 0
  let j = 0
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      out.push({ kind: 'same', text: a[i] ?? '' })
      i++
      j++
    } else if (j < b.length && (i >= a.length || at(i, j + 1) >= at(i + 1, j))) {
      out.push({ kind: 'added', text: b[j] ?? '' })
      j++
    } else {
      out.push({ kind: 'removed', text: a[i] ?? '' })
      i++
    }
  }
  return out
}
