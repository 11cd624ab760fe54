/**
 * Joins the chunks a stream produces in one burst into one chunk. React writes a flush as
 * many 4 KiB pieces in a row; joined, the shell with its whole <head> is the first chunk and
 * the network sees a few large writes instead of many small ones. A burst ends when no further
 * chunk is ready before the next macrotask.
 */
export function coalesce(source: ReadableStream<Uint8Array>): ReadableStream<Uint8Array> {
  const reader = source.getReader()
  let pending: Promise<ReadableStreamReadResult<Uint8Array>> | null = null
  // The timer is cleared when the chunk wins: pending timers count against the isolate's limit.
  const orNextTick = async <T>(next: Promise<T>): Promise<T | null> => {
    let timer: ReturnType<typeof setTimeout> | undefined
    const tick = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), 0)))
    try {
      return await Promise.race([next, tick])
    } finally {
      clearTimeout(timer)
    }
  }

  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const parts: Uint8Array[] = []
      for (;;) {
        const next = pending ?? reader.read()
        pending = null
        const result = parts.length === 0 ? await next : await orNextTick(next)
        if (result === null) {
          pending = next
          break
        }
        if (result.done) {
          if (parts.length) controller.enqueue(join(parts))
          controller.close()
          return
        }
        parts.push(result.value)
      }
      controller.enqueue(join(parts))
    },
    cancel(reason) {
      return reader.cancel(reason)
    },
  })
}

function join(parts: Uint8Array[]): Uint8Array {
  if (parts.length === 1 && parts[0]) return parts[0]
  const out = new Uint8Array(parts.reduce((n, p) => n + p.byteLength, 0))
  let offset = 0
  for (const p of parts) {
    out.set(p, offset)
    offset += p.byteLength
  }
  return out
}
