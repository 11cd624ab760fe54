import type { CatalogMessage } from './messages'

/** The largest request body POST /__ops/catalog reads: about a thousand typical messages. */
export const MAX_SYNC_BODY_BYTES = 1024 * 1024

// Queues take at most 100 messages and 256 KB in one sendBatch (docs/sync.md, "Limits").
const SEND_MESSAGES = 100
const SEND_BYTES = 250_000

/**
 * Sends each message as one queue message, in sendBatch calls within Queues' limits. Resolves to
 * how many were sent, or the error and how many had been sent before it.
 */
export async function enqueueChanges(
  queue: Queue,
  messages: readonly CatalogMessage[],
): Promise<{ enqueued: number } | { error: string; enqueued: number }> {
  let enqueued = 0
  let chunk: MessageSendRequest[] = []
  let bytes = 0
  const flush = async () => {
    if (chunk.length === 0) return
    await queue.sendBatch(chunk)
    enqueued += chunk.length
    chunk = []
    bytes = 0
  }
  try {
    for (const body of messages) {
      const size = JSON.stringify(body).length
      if (chunk.length === SEND_MESSAGES || bytes + size > SEND_BYTES) await flush()
      chunk.push({ body, contentType: 'json' })
      bytes += size
    }
    await flush()
  } catch (error) {
    return { error: String(error), enqueued }
  }
  return { enqueued }
}
