import { describe, expect, it } from 'vitest'
import { pageWindow } from '../../src/views/listing/pagination'

describe('pageWindow', () => {
  it('shows the ends and two pages either side of the current one', () => {
    expect(pageWindow(1, 3)).toEqual([1, 2, 3])
    expect(pageWindow(6, 12)).toEqual([1, null, 4, 5, 6, 7, 8, null, 12])
    expect(pageWindow(12, 12)).toEqual([1, null, 10, 11, 12])
  })
})
