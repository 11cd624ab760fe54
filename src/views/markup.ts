import { createContext } from 'react'

/**
 * Markup of fragments rendered before the page (src/views/fragments.ts), by the model they
 * show: a view places it instead of rendering the model again. Empty in the browser.
 */
export const Markup = createContext<ReadonlyMap<object, string>>(new Map())
