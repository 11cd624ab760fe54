import { fetch, memory } from './app'
import { refreshDerived } from './cron/refresh-derived'

export default {
  fetch,
  scheduled(controller, env, ctx) {
    ctx.waitUntil(refreshDerived(env, new Date(controller.scheduledTime), memory.derivedReads))
  },
} satisfies ExportedHandler<Env>
