import type { Db } from './data/db'
import type { Timing } from './observability/timing'

/** Hono's environment: bindings from `wrangler types`, per-request variables set by app.ts. */
export interface AppEnv {
  Bindings: Env
  Variables: {
    /** D1 reads for this request, counted, timed and retried (src/data/db.ts). */
    db: Db
    timing: Timing
    /** A crawler by user agent: it gets the whole document before the first byte. */
    bot: boolean
  }
}
