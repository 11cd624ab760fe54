// One line of progress for long work, on stderr so a script's own output stays clean: rewritten
// in place on a terminal at most every 250 ms, a plain line every 10 s otherwise (CI logs).

export interface Progress {
  /** `done` so far, of `total` when known, with anything else worth saying (errors, rows). */
  update(done: number, total?: number, detail?: string): void
  /** The final line. */
  end(detail?: string): void
}

/** How far back the rate and the ETA look: long enough to smooth out the batches. */
export const WINDOW_MS = 20_000

/**
 * No ETA until the window spans this long: the first seconds (start-up, the first batches in
 * flight, the cities generated ahead) say little about the rate to come.
 */
export const MIN_WINDOW_MS = 5_000

/** Work done by a moment (ms). */
export interface Sample {
  at: number
  done: number
}

/**
 * The rate of the recent work: `samples` (oldest first) with `next` added and those older than
 * the window dropped, and the rate over them per second (null until they span MIN_WINDOW_MS).
 */
export function recentRate(
  samples: readonly Sample[],
  next: Sample,
): { samples: Sample[]; rate: number | null } {
  const kept = [...samples.filter((s) => s.at >= next.at - WINDOW_MS), next]
  const first = kept[0] ?? next
  const span = next.at - first.at
  return {
    samples: kept,
    rate: span >= MIN_WINDOW_MS ? ((next.done - first.done) * 1000) / span : null,
  }
}

/** Seconds left at `rate`, or null when they cannot be told (no rate or total yet, or done). */
export function secondsLeft(done: number, total: number | undefined, rate: number | null) {
  if (!total || !rate || rate <= 0 || done >= total) return null
  return (total - done) / rate
}

export function progress(label: string): Progress {
  const tty = process.stderr.isTTY
  const every = tty ? 250 : 10_000
  const started = performance.now()
  let shown = started
  // Sampled at most every 250 ms: an import updates its progress for every line.
  let sampled = -Infinity
  let samples: Sample[] = []
  let rate: number | null = null
  const line = (done: number, total?: number, detail?: string) => {
    const seconds = (performance.now() - started) / 1000
    const shownRate = rate ?? (seconds > 0 ? done / seconds : 0)
    const parts = [total ? `${done}/${total}` : String(done), `${shownRate.toFixed(0)}/s`]
    const left = secondsLeft(done, total, rate)
    if (left !== null) parts.push(`ETA ${formatSeconds(left)}`)
    if (detail) parts.push(detail)
    return `${label}: ${parts.join(', ')}`
  }
  return {
    update(done, total, detail) {
      const now = performance.now()
      if (now - sampled < 250) return
      sampled = now
      ;({ samples, rate } = recentRate(samples, { at: now, done }))
      if (now - shown < every) return
      shown = now
      const text = line(done, total, detail)
      if (tty) process.stderr.write(`\r\x1b[K${text}`)
      else process.stderr.write(`${text}\n`)
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
