import { describe, expect, it } from 'vitest'
import { scriptJson } from '../../src/seo/json-ld'

describe('scriptJson', () => {
  it('can never close its script or open a comment, and reads back as the same data', () => {
    const value = { name: '</script><script>alert(1)</script> <!-- & \u2028\u2029 -->' }
    const text = scriptJson(value)
    expect(text).not.toMatch(/<|>|\u2028|\u2029/)
    expect(JSON.parse(text)).toEqual(value)
  })
})
