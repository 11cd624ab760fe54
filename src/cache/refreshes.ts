/**
 * The background refreshes of stale pages an isolate has under way (src/memory.ts keeps them):
 * one at a time per cache key, each known by its own Request object, so no client header can ask
 * for one.
 */
export class Refreshes {
  private readonly requests = new WeakSet<Request>()
  private readonly keys = new Set<string>()

  /** Whether `request` is a refresh this isolate started. */
  isRefresh(request: Request): boolean {
    return this.requests.has(request)
  }

  /**
   * The request to refresh `key` with, a copy of `request`; null while one for `key` is under
   * way. `done` must be called when it ends.
   */
  start(key: string, request: Request): Request | null {
    if (this.keys.has(key)) return null
    this.keys.add(key)
    const refresh = new Request(request)
    this.requests.add(refresh)
    return refresh
  }

  done(key: string): void {
    this.keys.delete(key)
  }
}
