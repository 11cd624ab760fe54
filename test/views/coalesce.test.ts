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
    const reader = coalesce(source).getReader()
    const first = await reader.read()
    expect(new TextDecoder().decode(first.value)).toBe('<html><head></head><body>')
    // Asked for before it exists: the chunk arrives while the read waits.
    const next = reader.read()
    later('</body></html>')
    expect(new TextDecoder().decode((await next).value)).toBe('</body></html>')
    expect((await reader.read()).done).toBe(true)
  })
})
