// One line of progress for long work, on stderr so a script's own output stays clean: rewritten
// in place on a terminal at most every 250 ms, a plain line every 10 s otherwise (CI logs).

export interface Progress {
  /** `done` so far, of `total` when known, with anything else worth saying (errors, rows). */
  update(done: number, total?: number, detail?: string): void
  /** The final line. */
  end(detail?: string): void
}

export function progress(label: string): Progress {
  const tty = process.stderr.isTTY
  const every = tty ? 250 : 10_000
  const started = performance.now()
  let shown = started
  const line = (done: number, total?: number, detail?: string) => {
    const seconds = (performance.now() - started) / 1000
    const rate = seconds > 0 ? done / seconds : 0
    const parts = [total ? `${done}/${total}` : String(done), `${rate.toFixed(0)}/s`]
    if (total && rate > 0 && done < total) parts.push(`ETA ${formatSeconds((total - done) / rate)}`)
    if (detail) parts.push(detail)
    return `${label}: ${parts.join(', ')}`
  }
  return {
    update(done, total, detail) {
      const now = performance.now()
      if (now - shown < every) return
      shown = now
      if (tty) process.stderr.write(`\r\x1b[K${line(done, total, detail)}`)
      else process.stderr.write(`${line(done, total, detail)}\n`)
    },
    end(detail) {
      if (tty) process.stderr.write('\r\x1b[K')
      if (detail) process.stderr.write(`${label}: ${detail}\n`)
    },
  }
}

function formatSeconds(seconds: number): string {
  if (seconds < 60) return `${Math.ceil(seconds)} s`
  const minutes = Math.floor(seconds / 60)
  return `${minutes} min ${Math.round(seconds % 60)} s`
}
