import type { Splices } from './splice'
import { join } from './splice'

/**
 * Joins the chunks a stream produces in one burst into one chunk. React writes a flush as
 * many 4 KiB pieces in a row, synchronously; joined, the shell with its whole <head> is the
 * first chunk and the network sees a few large writes instead of many small ones. A burst ends
 * when no further chunk is ready within a few microtasks: React's next flush waits on I/O.
 * (A timer per chunk, racing the read, cost a few per cent of a page's CPU.) With `splices`,
 * each joined chunk gets its fragments' bytes in place of their markers.
 */
/** Enough for a chunk already queued to reach a reader through the stream's promise chain. */
const READY_WITHIN_MICROTASKS = 4

export function coalesce(
  source: ReadableStream<Uint8Array>,
  splices: Splices | null = null,
): ReadableStream<Uint8Array> {
  const reader = source.getReader()
  let pending: Promise<ReadableStreamReadResult<Uint8Array>> | null = null
  // A failed read is left to the next pull, which awaits it.
  const ifReady = async <T>(next: Promise<T>): Promise<T | null> => {
    const ready: T[] = []
    next.then(
      (value) => ready.push(value),
      () => undefined,
    )
    for (let i = 0; i < READY_WITHIN_MICROTASKS && !ready.length; i++) await Promise.resolve()
    return ready[0] ?? null
  }

  // Whether a chunk went out: a splice may hold back all it was given.
  const enqueue = (
    controller: ReadableStreamDefaultController<Uint8Array>,
    parts: Uint8Array[],
  ) => {
    const chunk = splices ? splices.apply(join(parts)) : join(parts)
    if (chunk.byteLength) controller.enqueue(chunk)
    return chunk.byteLength > 0
  }

  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const parts: Uint8Array[] = []
      for (;;) {
        const next = pending ?? reader.read()
        pending = null
        const result = parts.length === 0 ? await next : await ifReady(next)
        if (result === null) {
          pending = next
          if (enqueue(controller, parts.splice(0))) return
          continue
        }
        if (result.done) {
          if (parts.length) enqueue(controller, parts)
          const rest = splices?.rest()
          if (rest) controller.enqueue(rest)
          controller.close()
          return
        }
        parts.push(result.value)
      }
    },
    cancel(reason) {
      return reader.cancel(reason)
    },
  })
}
