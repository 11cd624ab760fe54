import type { ReactNode } from 'react'
import { Component } from 'react'
import { report } from './report'

export const APP_ERROR = 'Application error: a client-side exception has occurred'

let failed = false

/**
 * An uncaught error of the browser script (docs/browser.md): reported, and the page says so
 * in place of its content, with a way to load it again.
 */
export function fail(error: unknown): void {
  report(error)
  if (failed) return
  failed = true
  const main = document.getElementById('main') ?? document.body
  const heading = document.createElement('h1')
  heading.textContent = APP_ERROR
  const again = document.createElement('a')
  again.href = location.href
  again.textContent = 'Load the page again'
  const line = document.createElement('p')
  line.append(again)
  main.replaceChildren(heading, line)
}

/**
 * Whether an error event came from the browser script or the file it loads with React (this
 * one: `import.meta.url`), not from a tag or an extension.
 */
export function isOurs(filename: string | undefined, stack: string | undefined): boolean {
  const scripts = [
    import.meta.url,
    ...[...document.querySelectorAll<HTMLScriptElement>('script[type="module"][src]')].map(
      (script) => script.src,
    ),
  ]
  return scripts.some((script) => filename === script || (stack ?? '').includes(script))
}

/** Catches what an island throws while rendering. */
export class IslandBoundary extends Component<{ children: ReactNode }, { broken: boolean }> {
  override state = { broken: false }

  static getDerivedStateFromError(): { broken: boolean } {
    return { broken: true }
  }

  override componentDidCatch(error: unknown): void {
    fail(error)
  }

  override render(): ReactNode {
    return this.state.broken ? null : this.props.children
  }
}
