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
    setTimeout(() => later('</body></html>'), 5)
    expect(new TextDecoder().decode((await reader.read()).value)).toBe('</body></html>')
    expect((await reader.read()).done).toBe(true)
  })
})
