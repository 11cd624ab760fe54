import type { Splices } from './splice'
import { join } from './splice'

/** Enough for a chunk already queued to reach a reader through the stream's promise chain. */
const READY_WITHIN_MICROTASKS = 4

/** A coalesced stream and the whole of what it sends. */
export interface Coalesced {
  body: ReadableStream<Uint8Array>
  /**
   * The whole of what `body` sends, once it has sent it, read to its end even if its reader
   * stops (as a tee's other branch would be); asking for it is what keeps it.
   */
  whole: () => Promise<Uint8Array>
}

/**
 * Joins the chunks a stream produces in one burst into one chunk. React writes a flush as
 * many 4 KiB pieces in a row, synchronously; joined, the shell with its whole <head> is the
 * first chunk and the network sees a few large writes instead of many small ones. A burst ends
 * when no further chunk is ready within a few microtasks: React's next flush waits on I/O.
 * (A timer per chunk, racing the read, cost a few per cent of a page's CPU.) With `splices`,
 * each joined chunk gets the bytes its markers stand for (src/views/splice.ts).
 *
 * The source is read as fast as it writes, not at the reader's pace: a page is rendered whole
 * whatever the reader does. The chunks sent are kept and returned beside the stream (`whole`),
 * so the stored copy of a render needs no second branch of the stream (a `tee`) and no second
 * read of each chunk.
 */
export function coalesce(
  source: ReadableStream<Uint8Array>,
  splices: Splices | null = null,
): Coalesced {
  const reader = source.getReader()
  const chunks: Uint8Array[] = []
  let reading = true
  let kept = false
  let done: Promise<Uint8Array[]> = Promise.resolve(chunks)
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      const emit = (chunk: Uint8Array) => {
        if (!chunk.byteLength) return
        chunks.push(chunk)
        if (reading) controller.enqueue(chunk)
      }
      done = bursts(reader, splices, emit).then(
        () => {
          if (reading) controller.close()
          return chunks
        },
        (error: unknown) => {
          if (reading) controller.error(error)
          throw error
        },
      )
      // Its failure is the stream's; a caller of `whole` gets it too.
      done.catch(() => undefined)
    },
    cancel(reason) {
      reading = false
      if (!kept) return reader.cancel(reason)
    },
  })
  const whole = () => {
    kept = true
    return done.then((sent) => (sent.length ? join(sent) : new Uint8Array(0)))
  }
  return { body, whole }
}

/** Reads `reader` to its end, handing each burst, joined and spliced, to `emit`. */
async function bursts(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  splices: Splices | null,
  emit: (chunk: Uint8Array) => void,
): Promise<void> {
  const joined = (parts: Uint8Array[]) => (splices ? splices.apply(join(parts)) : join(parts))
  const parts: Uint8Array[] = []
  let pending: Promise<ReadableStreamReadResult<Uint8Array>> | null = null
  for (;;) {
    const next: Promise<ReadableStreamReadResult<Uint8Array>> = pending ?? reader.read()
    pending = null
    const result = parts.length === 0 ? await next : await ifReady(next)
    if (result === null) {
      pending = next
      emit(joined(parts.splice(0)))
      continue
    }
    if (result.done) {
      if (parts.length) emit(joined(parts))
      const rest = splices?.rest()
      if (rest) emit(rest)
      return
    }
    parts.push(result.value)
  }
}

/** `next`'s value if it is ready within a few microtasks, else null. A failed read is left to
 * the next turn, which awaits it. */
async function ifReady<T>(next: Promise<T>): Promise<T | null> {
  const ready: T[] = []
  next.then(
    (value) => ready.push(value),
    () => undefined,
  )
  for (let i = 0; i < READY_WITHIN_MICROTASKS && !ready.length; i++) await Promise.resolve()
  return ready[0] ?? null
}
