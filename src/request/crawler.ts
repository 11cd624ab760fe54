import { isbot } from 'isbot'

/**
 * Whether a user agent is a crawler (`isbot`'s maintained pattern). The answer for each agent
 * is kept, as a few agents make most requests and the pattern is one large expression.
 */
const known = new Map<string, boolean>()
const MAX_KNOWN = 1000
/**
 * The part of a user agent looked at: crawlers name themselves well within it, and the answers
 * kept stay under MAX_KNOWN × 512 characters whatever agents a client makes up.
 */
export const MAX_AGENT = 512

export function isCrawler(userAgent: string | undefined): boolean {
  const whole = userAgent ?? ''
  // A copy of its own: in V8 a slice keeps the whole string it was cut from alive, and the key
  // is kept (900 agents of 60 KB held 53 MiB through their 512-character slices).
  const agent = whole.length > MAX_AGENT ? Array.from(whole.slice(0, MAX_AGENT)).join('') : whole
  let answer = known.get(agent)
  if (answer === undefined) {
    answer = isbot(agent)
    if (known.size >= MAX_KNOWN) known.clear()
    known.set(agent, answer)
  }
  return answer
}
