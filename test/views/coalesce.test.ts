import { describe, expect, it } from 'vitest'
import { coalesce } from '../../src/views/coalesce'

const bytes = (s: string) => new TextEncoder().encode(s)

describe('coalesce', () => {
  it('joins a burst into one chunk and keeps a later chunk separate', async () => {
    let later: (s: string) => void = () => undefined
    const source = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const part of ['<html>', '<head>', '</head>', '<body>'])
          controller.enqueue(bytes(part))
        later = (s) => {
          controller.enqueue(bytes(s))
          controller.close()
        }
      },
    })
    const reader = coalesce(source).body.getReader()
    const first = await reader.read()
    expect(new TextDecoder().decode(first.value)).toBe('<html><head></head><body>')
    // Asked for before it exists: the chunk arrives while the read waits.
    const next = reader.read()
    later('</body></html>')
    expect(new TextDecoder().decode((await next).value)).toBe('</body></html>')
    expect((await reader.read()).done).toBe(true)
  })

  it('returns the whole of what it sends beside the stream, to its end even when the reader stops', async () => {
    const parts = ['<html>', '<body>', 'a'.repeat(5000), '</body></html>']
    let go: () => void = () => undefined
    const later = new Promise<void>((r) => (go = r))
    const source = new ReadableStream<Uint8Array>({
      async start(controller) {
        controller.enqueue(bytes(parts[0] ?? ''))
        await later
        for (const part of parts.slice(1)) controller.enqueue(bytes(part))
        controller.close()
      },
    })
    const { body, whole } = coalesce(source)
    const kept = whole()
    const reader = body.getReader()
    expect(new TextDecoder().decode((await reader.read()).value)).toBe('<html>')
    // The visitor goes away after the first chunk: the copy is still read to its end.
    await reader.cancel()
    go()
    expect(new TextDecoder().decode(await kept)).toBe(parts.join(''))
  })
})
