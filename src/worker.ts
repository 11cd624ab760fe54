import { fetch, memory } from './app'
import { forgetOldPurges } from './cache/generations'
import { forgetOldAudit } from './cache/purge-audit'
import { refreshDerived } from './cron/refresh-derived'

export default {
  fetch,
  scheduled(controller, env, ctx) {
    ctx.waitUntil(refreshDerived(env, new Date(controller.scheduledTime), memory.derivedReads))
    // Purges older than any stored page: the table stays at about 9 days of purges.
    ctx.waitUntil(forgetOldPurges(env.DB, controller.scheduledTime))
    // The audit log keeps AUDIT_KEEP_DAYS.
    ctx.waitUntil(forgetOldAudit(env.DB, controller.scheduledTime))
  },
} satisfies ExportedHandler<Env>
