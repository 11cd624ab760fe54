import { describe, expect, it } from 'vitest'
import type { HotPage } from '../../src/cache/hot-pages'
import { HotPages } from '../../src/cache/hot-pages'
import { anEntryMeta } from '../support/builders'

describe('hot pages', () => {
  it('keep the most recently used pages within their byte budget', () => {
    const pages = new HotPages()
    const page = (kb: number): HotPage => ({
      status: 200,
      headers: new Headers({ 'x-test': '1' }),
      meta: anEntryMeta({ etag: `W/"${kb}"` }),
      parts: [new Uint8Array(kb * 1024)],
      bytes: kb * 1024,
    })
    pages.remember('a', page(500))
    for (let i = 0; i < 32; i++) pages.remember(`p${i}`, page(500))
    // 16 MiB hold 32 pages of 500 KiB: the first one in is out, recalling one keeps it in.
    expect(pages.recall('a')).toBeUndefined()
    expect(pages.recall('p0')?.status).toBe(200)
    pages.remember('q', page(500))
    expect(pages.recall('p0')).toBeDefined()
    expect(pages.recall('p1')).toBeUndefined()
    // Too large to hold.
    pages.remember('big', page(600))
    expect(pages.recall('big')).toBeUndefined()
    expect(pages.recall('q')?.headers.get('x-test')).toBe('1')
  })
})
