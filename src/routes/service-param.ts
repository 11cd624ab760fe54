import type { Context } from 'hono'
import { HTTPException } from 'hono/http-exception'
import type { Service } from '../catalog/services'
import { findService } from '../catalog/services'
import type { AppEnv } from '../env'
import { isServiceShown } from '../flags/visibility'

/** The service a route's `:service` names, if its pages exist for this request (flags); else 404. */
export function serviceParam(c: Context<AppEnv>): Service {
  const service = findService(c.req.param('service') ?? '')
  if (!service || !isServiceShown(service.slug, c.get('flags').on)) throw new HTTPException(404)
  return service
}
