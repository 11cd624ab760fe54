import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { dollars, monthYear, number } from '../../src/views/parts/format'

// What the pages have always written: Intl's en-US formatting, formatted anew each call.
const plain = new Intl.NumberFormat('en-US')
const usd = (digits: number) =>
  new Intl.NumberFormat('en-US', {
    style: 'currency',
    currency: 'USD',
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  })

describe('numbers formatted once', () => {
  const numbers = fc.oneof(
    fc.nat(12_000),
    fc.integer({ min: 0, max: 50_000 }).map((c) => c / 100),
    fc.integer({ min: -50, max: 2_000_000 }),
    fc.double({ noNaN: false }),
    fc.constantFrom(0, -0, 9_999, 10_000, 0.5, 12.5, Infinity),
  )

  it('write what Intl writes, the first time and from memory', () => {
    fc.assert(
      fc.property(numbers, (n) => {
        for (let i = 0; i < 2; i++) {
          expect(number(n)).toBe(plain.format(n))
          expect(dollars(n)).toBe(usd(0).format(n))
          expect(dollars(n, true)).toBe(usd(2).format(n))
        }
      }),
      { numRuns: 1_000 },
    )
  })
})

describe('months written once', () => {
  const monthYearOf = new Intl.DateTimeFormat('en-US', {
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  })
  const instants = fc
    .date({ min: new Date('1990-01-01'), max: new Date('2040-12-31'), noInvalidDate: true })
    .chain((d) =>
      fc.constantFrom(
        d.toISOString(),
        d.toISOString().slice(0, 10),
        d.toISOString().replace('Z', '+05:30'),
        d.toISOString().replace('Z', '-11:00'),
      ),
    )

  it('write the month Intl writes for any instant or date, the first time and from memory', () => {
    fc.assert(
      fc.property(instants, (iso) => {
        expect(monthYear(iso)).toBe(monthYearOf.format(new Date(iso)))
        expect(monthYear(iso)).toBe(monthYearOf.format(new Date(iso)))
      }),
      { numRuns: 1_000 },
    )
  })
})
