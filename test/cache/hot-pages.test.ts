import { describe, expect, it } from 'vitest'
import type { HotPage } from '../../src/cache/hot-pages'
import { forgetHotPages, recallPage, rememberPage } from '../../src/cache/hot-pages'
import { anEntryMeta } from '../support/builders'

describe('hot pages', () => {
  it('keep the most recently used pages within their byte budget', () => {
    forgetHotPages()
    const page = (kb: number): HotPage => ({
      status: 200,
      headers: [['x-test', '1']],
      meta: anEntryMeta({ etag: `W/"${kb}"` }),
      parts: [new Uint8Array(kb * 1024)],
      bytes: kb * 1024,
    })
    rememberPage('a', page(500))
    for (let i = 0; i < 32; i++) rememberPage(`p${i}`, page(500))
    // 16 MiB hold 32 pages of 500 KiB: the first one in is out, recalling one keeps it in.
    expect(recallPage('a')).toBeUndefined()
    expect(recallPage('p0')?.status).toBe(200)
    rememberPage('q', page(500))
    expect(recallPage('p0')).toBeDefined()
    expect(recallPage('p1')).toBeUndefined()
    // Too large to hold.
    rememberPage('big', page(600))
    expect(recallPage('big')).toBeUndefined()
    expect(recallPage('q')?.headers).toEqual([['x-test', '1']])
    forgetHotPages()
  })
})
