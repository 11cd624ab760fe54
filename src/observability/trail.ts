import type { Breadcrumb } from '@sentry/types'

/** The product's breadcrumb limit. */
export const MAX_BREADCRUMBS = 100

/**
 * What happened during a request, in order: storage reads, flag evaluations, cache decisions.
 * Kept cheaply in memory and handed to error reporting only if something is reported.
 */
export class Trail {
  readonly crumbs: Breadcrumb[] = []

  add(category: string, message: string, data?: Record<string, unknown>): void {
    if (this.crumbs.length >= MAX_BREADCRUMBS) this.crumbs.shift()
    this.crumbs.push({ category, message, data, level: 'info', timestamp: Date.now() / 1000 })
  }
}
