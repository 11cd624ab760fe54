import type { ReactNode } from 'react'
import { renderToReadableStream } from 'react-dom/server.node'
import { coalesce } from './coalesce'
import type { Splices } from './splice'

export interface RenderOptions {
  status: number
  headers: Record<string, string>
  /**
   * Crawlers get the complete document before the first byte (React's `allReady`), or, if a
   * section failed, an IncompleteDocument error instead.
   */
  waitForAll: boolean
  /** Errors of sections streamed after the shell; a shell error rejects instead. */
  onStreamError: (error: unknown) => void
  /** The nonce of React's own inline scripts (the streamed sections' swaps). */
  nonce?: string
  /** The bytes of the fragments whose markers the page's markup holds (src/views/splice.ts). */
  splices?: Splices
}

/**
 * What React writes where a Suspense boundary had not resolved when the document was written:
 * its fallback, after `<template id="B:n">`, for a later chunk's script to swap. A document
 * without it has every section in place: what a crawler may be served. This is React's output
 * format, not an API: test/views/render-html.test.tsx renders a suspended boundary and pins it.
 */
export const PENDING_BOUNDARY = '<template id="B:'

/**
 * A render: the response to send, and the whole of what its body sends, once sent (for the
 * stored copy: src/cache/edge-cache.ts), without a second read of the stream.
 */
export interface Rendered {
  response: Response
  whole: () => Promise<Uint8Array>
}

/** A document some section of which failed, for a caller that waits for the whole document. */
export class IncompleteDocument extends Error {}

/**
 * Streams a page. Status and headers are fixed here, before the first byte: once the shell has
 * flushed they cannot change. The shell, with the whole <head>, goes out as one chunk
 * (docs/request-flow.md, "Streaming").
 */
export async function renderHtml(node: ReactNode, options: RenderOptions): Promise<Rendered> {
  // React reports a shell error both to onError and by rejecting; hold errors until the shell
  // is ready so a failed shell is reported once, by the app's onError.
  const early: unknown[] = []
  let report: (error: unknown) => void = (error) => early.push(error)
  const stream = await renderToReadableStream(node, {
    onError: (error) => report(error),
    nonce: options.nonce,
    // React outlines a finished section once 12.8 KB have been written, and only a script can
    // put it back in place. Pages must read complete without JavaScript, so finished sections
    // stay inline; only sections still loading when the shell flushes are streamed.
    progressiveChunkSize: Number.MAX_SAFE_INTEGER,
  })
  let failed = false
  report = (error) => {
    failed = true
    options.onStreamError(error)
  }
  early.forEach(report)
  if (options.waitForAll) {
    await stream.allReady
    // Nothing has been sent yet: a crawler never gets a document with a section missing, but
    // the stored copy or a 503 (docs/seo.md).
    if (failed) {
      await stream.cancel()
      throw new IncompleteDocument('a section of the document failed')
    }
  }
  const { body, whole } = coalesce(stream, options.splices)
  const response = new Response(body, {
    status: options.status,
    headers: { 'content-type': 'text/html; charset=utf-8', ...options.headers },
  })
  return { response, whole }
}
