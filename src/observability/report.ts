/**
 * Reports a problem that did not fail the request (a malformed flag document, a gate that could
 * not load, a streamed section that failed): one JSON log line, readable with `wrangler tail`.
 */
export function report(message: string, detail: Record<string, unknown> = {}): void {
  console.error(JSON.stringify({ level: 'error', message, ...detail }))
}
