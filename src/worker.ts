import { fetch, memory } from './app'
import { refreshDerived } from './cron/refresh-derived'
import { reportBackground } from './observability/reporter'

export default {
  fetch,
  scheduled(controller, env, ctx) {
    const waitUntil = (promise: Promise<unknown>) => ctx.waitUntil(promise)
    // Each step that fails is reported on its own, tagged with its name.
    const report = (step: string, error: unknown) =>
      reportBackground(error, {
        dsn: env.SENTRY_DSN,
        environment: env.ENVIRONMENT,
        waitUntil,
        tags: { cron: step },
      })
    ctx.waitUntil(
      refreshDerived(env, new Date(controller.scheduledTime), memory.derivedReads, report),
    )
  },
} satisfies ExportedHandler<Env>
