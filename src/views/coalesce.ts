import type { Splices } from './splice'
import { join } from './splice'

/**
 * Joins the chunks a stream produces in one burst into one chunk. React writes a flush as
 * many 4 KiB pieces in a row, synchronously; joined, the shell with its whole <head> is the
 * first chunk and the network sees a few large writes instead of many small ones. A burst ends
 * when no further chunk is ready within a few microtasks: React's next flush waits on I/O.
 * (A timer per chunk, racing the read, cost a few per cent of a page's CPU.) With `splices`,
 * each joined chunk gets its fragments' bytes in place of their markers.
 *
 * The source is read as fast as it writes, not at the reader's pace: a page is rendered whole
 * whatever the reader does. The chunks sent are kept, so the stored copy of a render
 * (`sentBytes`) needs no second branch of the stream (a `tee`) and no second read of each chunk.
 */
/** Enough for a chunk already queued to reach a reader through the stream's promise chain. */
const READY_WITHIN_MICROTASKS = 4

/** What a coalesced stream sends, kept on the stream itself for `sentBytes`. */
class Sent {
  readonly chunks: Uint8Array[] = []
  /** Whether the reader still reads. */
  reading = true
  /** Whether the bytes are kept to their end even if it stops. */
  kept = false
  done: Promise<Uint8Array[]> = Promise.resolve(this.chunks)
}

const SENT = Symbol('sent')
type Coalesced = ReadableStream<Uint8Array> & { [SENT]?: Sent }

export function coalesce(
  source: ReadableStream<Uint8Array>,
  splices: Splices | null = null,
): ReadableStream<Uint8Array> {
  const reader = source.getReader()
  const sent = new Sent()
  const stream: Coalesced = new ReadableStream<Uint8Array>({
    start(controller) {
      const emit = (chunk: Uint8Array) => {
        if (!chunk.byteLength) return
        sent.chunks.push(chunk)
        if (sent.reading) controller.enqueue(chunk)
      }
      sent.done = bursts(reader, splices, emit).then(
        () => {
          if (sent.reading) controller.close()
          return sent.chunks
        },
        (error: unknown) => {
          if (sent.reading) controller.error(error)
          throw error
        },
      )
      // Its failure is the stream's; a caller of `sentBytes` gets it too.
      sent.done.catch(() => undefined)
    },
    cancel(reason) {
      sent.reading = false
      // A copy being kept is rendered to its end, as a tee's other branch would be.
      if (!sent.kept) return reader.cancel(reason)
    },
  })
  stream[SENT] = sent
  return stream
}

/**
 * The whole of what `stream` (a response body made by `coalesce`) sends, once it has sent it,
 * read to its end even if its reader stops; undefined for any other body.
 */
export function sentBytes(stream: Coalesced | null): Promise<Uint8Array> | undefined {
  const sent = stream?.[SENT]
  if (!sent) return undefined
  sent.kept = true
  return sent.done.then((chunks) => (chunks.length ? join(chunks) : new Uint8Array(0)))
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
