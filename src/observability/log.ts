/** How much a log line matters: `error` and `warn` go to stderr, the rest to stdout. */
export type Level = 'info' | 'warn' | 'error'

/**
 * One structured log line, the same shape everywhere (Workers Logs and `wrangler tail` index
 * its fields): `level`, `message`, then the fields. A line written for a request carries its
 * `requestId`, which its error reports carry too (the `request_id` tag), so the two can be
 * matched.
 */
export function log(level: Level, message: string, fields: Record<string, unknown> = {}): void {
  const line = JSON.stringify({ level, message, ...fields })
  if (level === 'info') console.log(line)
  else console.error(line)
}

/** A request's id: Cloudflare's `cf-ray` (also in its dashboard's logs), or a random one locally. */
export function requestIdOf(request: Request): string {
  return request.headers.get('cf-ray') ?? crypto.randomUUID()
}
