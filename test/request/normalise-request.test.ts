import { describe, expect, it } from 'vitest'
import { checkUrl } from '../../src/request/normalise-request'

const verdict = (path: string) => checkUrl(new URL(`https://www.care.example${path}`))

describe('checkUrl', () => {
  it('accepts a canonical path', () => {
    expect(verdict('/babysitters/atlanta-ga?page=2')).toEqual({ kind: 'ok' })
  })

  it.each([
    ['/Babysitters/Atlanta-GA', '/babysitters/atlanta-ga'],
    ['/babysitters/atlanta-ga/', '/babysitters/atlanta-ga'],
    ['/babysitters//atlanta-ga', '/babysitters/atlanta-ga'],
    ['//evil.example', '/evil.example'],
    ['/\\evil.example', '/evil.example'],
    ['/%62abysitters/atlanta-ga?sort=newest', '/babysitters/atlanta-ga?sort=newest'],
    ['/babysitters/atlanta%2Dga', '/babysitters/atlanta-ga'],
    ['/p/%4D%61ria-%31%32', '/p/maria-12'],
    ['/%2F%2Fevil.example', '/%2f%2fevil.example'],
  ])('redirects %s to %s', (path, location) => {
    expect(verdict(path)).toEqual({ kind: 'redirect', location })
  })

  it.each([
    ['/babysitters/%E0%A4%A', 'invalid percent-encoding'],
    ['/babysitters/%zz', 'invalid percent-encoding'],
    ['/babysitters/%C0%AF', 'invalid percent-encoding'],
    ['/a%00b', 'control character'],
    ['/a?b=%7F', 'control character'],
    [`/${'x'.repeat(2048)}`, 'path too long'],
    [`/?q=${'x'.repeat(4095)}`, 'query too long'],
  ])('refuses %s: %s', (path, reason) => {
    expect(verdict(path)).toEqual({ kind: 'bad-request', reason })
  })
})
