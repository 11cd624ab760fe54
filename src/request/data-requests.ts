import type { MiddlewareHandler } from 'hono'
import { HTTPException } from 'hono/http-exception'

/** The header the browser script sends with every data request (docs/browser.md). */
export const DATA_REQUEST_HEADER = 'x-data-request'

/**
 * `/_data…` answers only the browser script, which says so with `x-data-request: 1`; anything
 * else (a crawler following a stray link, a hand-typed URL) gets a 400 in JSON. The header
 * changes nothing anywhere else: an HTML URL answers HTML whatever it carries.
 */
export const dataRequests: MiddlewareHandler = async (c, next) => {
  if (c.req.header(DATA_REQUEST_HEADER) !== '1') {
    throw new HTTPException(400, { message: `data requests carry ${DATA_REQUEST_HEADER}: 1` })
  }
  await next()
}
