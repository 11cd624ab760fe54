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
  const agent = (userAgent ?? '').slice(0, MAX_AGENT)
  let answer = known.get(agent)
  if (answer === undefined) {
    answer = isbot(agent)
    if (known.size >= MAX_KNOWN) known.clear()
    known.set(agent, answer)
  }
  return answer
}
