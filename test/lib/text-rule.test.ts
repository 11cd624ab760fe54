import { describe, expect, it } from 'vitest'
import { shownText, textFault } from '../../src/lib/text-rule'

// The one text rule: what it refuses, where, and what it leaves to the words people write.

describe('the text rule', () => {
  it('refuses each kind of character it names, at its position', () => {
    expect(textFault('Loves\u0000kids')).toMatchObject({
      position: 6,
      codePoint: 'U+0000',
      what: 'a control character',
    })
    expect(textFault('Bell\u0007 and \u001b[31m')).toMatchObject({ position: 5 })
    expect(textFault('abc\u0085')).toMatchObject({ position: 4, what: 'a control character' })
    expect(textFault('a\u202eevil')).toMatchObject({ position: 2, what: 'a bidi control' })
    expect(textFault('a\u2067b')).toMatchObject({ what: 'a bidi control' })
    expect(textFault('\u200dhello')).toMatchObject({
      position: 1,
      what: 'a zero-width joiner outside a word',
    })
    expect(textFault('hi \u200c there')).toMatchObject({ position: 4 })
    expect(textFault('lone \ud800 half')).toMatchObject({ position: 6, what: 'a lone surrogate' })
    expect(textFault('\udc00')).toMatchObject({ position: 1, what: 'a lone surrogate' })
  })

  it('counts positions in characters: an emoji before the fault is one', () => {
    expect(textFault('😀\u0007')).toMatchObject({ position: 2 })
  })

  it('takes what people write: accents, emoji, joined emoji, Persian, Arabic, Hebrew', () => {
    for (const text of [
      "O'Brien-Núñez, Zoë",
      'Family 👨‍👩‍👧 and 👍🏽',
      'می‌خواهم پرستار',
      'أحب رعاية الأطفال',
      'שלום \u200fעולם',
      'Line one\nline two',
    ])
      expect([text, textFault(text, { lineBreaks: true })]).toEqual([text, null])
  })

  it('keeps a line feed only where a field keeps line breaks', () => {
    expect(textFault('a\nb')).toMatchObject({ position: 2, what: 'a control character' })
    expect(textFault('a\nb', { lineBreaks: true })).toBeNull()
    expect(textFault('a\r\nb', { lineBreaks: true })).toMatchObject({ position: 2 })
  })

  it('shows stored text without what the rule refuses, and the rest as it was', () => {
    expect(shownText('a\u0000b\u0007c\u001b[31md\u202ee\ud800f')).toBe('abc[31mde\ufffdf')
    expect(shownText('tab\tand\nline')).toBe('tab\tand\nline')
    expect(shownText('👨‍👩‍👧 \u200dx')).toBe('👨‍👩‍👧 x')
    const plain = 'Nothing to take out'
    expect(shownText(plain)).toBe(plain)
  })
})
