/**
 * An error page as rendered once: sent again as it is with the policy naming its scripts'
 * hashes, or (when the tag manager, which passes the nonce on, is on) cut where its nonce was.
 */
export type RenderedError = { body: Uint8Array; policy: string } | { parts: Uint8Array[] }

/** The most error pages an isolate keeps; past it, it forgets them all and starts again. */
const MAX_RENDERED_ERRORS = 256

/**
 * Error pages rendered once per status, page target and flag variant (src/memory.ts keeps them):
 * a flood of unknown URLs renders nothing. Each response still gets a nonce of its own, put
 * where the first one was.
 */
export class RenderedErrors {
  private readonly pages = new Map<string, RenderedError>()

  /** The key of an error page: its status, data layer and flag variant. */
  static key(status: number, dataLayer: unknown, variant: string): string {
    return JSON.stringify([status, dataLayer, variant])
  }

  get(key: string): RenderedError | undefined {
    return this.pages.get(key)
  }

  set(key: string, page: RenderedError): void {
    if (this.pages.size >= MAX_RENDERED_ERRORS) this.pages.clear()
    this.pages.set(key, page)
  }
}
