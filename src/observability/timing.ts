/** Server-Timing metrics of one request (https://www.w3.org/TR/server-timing/). */
export class Timing {
  readonly #start = performance.now()
  readonly #metrics = new Map<string, { ms: number; count: number }>()
  readonly #notes = new Map<string, string>()

  add(name: string, ms: number): void {
    const m = this.#metrics.get(name) ?? { ms: 0, count: 0 }
    m.ms += ms
    m.count += 1
    this.#metrics.set(name, m)
  }

  /** A fact of the request with no duration, such as where its D1 reads went (`d1-session`). */
  note(name: string, desc: string): void {
    this.#notes.set(name, desc)
  }

  count(name: string): number {
    return this.#metrics.get(name)?.count ?? 0
  }

  /** `d1;dur=1.2;desc="2 reads", total;dur=3.4`: the D1 read count is what tests assert. */
  header(): string {
    const parts = [...this.#metrics].map(
      ([name, m]) => `${name};dur=${m.ms.toFixed(1)};desc="${m.count}"`,
    )
    for (const [name, desc] of this.#notes) parts.push(`${name};desc="${desc}"`)
    parts.push(`total;dur=${(performance.now() - this.#start).toFixed(1)}`)
    return parts.join(', ')
  }
}
