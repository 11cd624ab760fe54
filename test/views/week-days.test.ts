import { describe, expect, it } from 'vitest'
import { weekDays } from '../../src/views/parts/week-days'

describe('weekDays', () => {
  it('says the days of an availability mask as people do, Monday first', () => {
    expect(weekDays(0b0011111)).toBe('Monday to Friday')
    expect(weekDays(0b1100000)).toBe('Saturday and Sunday')
    expect(weekDays(0b1111111)).toBe('every day')
    expect(weekDays(0b0010101)).toBe('Monday, Wednesday and Friday')
    expect(weekDays(0b1110111)).toBe('Monday to Wednesday and Friday to Sunday')
    expect(weekDays(0b0000011)).toBe('Monday and Tuesday')
    expect(weekDays(0b0001000)).toBe('Thursday')
    expect(weekDays(0)).toBeNull()
  })
})
