import { describe, expect, it } from 'vitest'
import { htmlProblems } from '../support/html-validity'

describe('htmlProblems', () => {
  it('finds none in a valid document', async () => {
    const html =
      '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>t</title></head><body><p>x</p></body></html>'
    expect(await htmlProblems(html)).toEqual([])
  })

  it('names a table inside a paragraph', async () => {
    const html =
      '<!doctype html><html lang="en"><head><title>t</title></head><body><p><table><tr><td>x</td></tr></table></p></body></html>'
    expect((await htmlProblems(html)).join('\n')).toMatch(/element-permitted-content|close-order/)
  })
})
