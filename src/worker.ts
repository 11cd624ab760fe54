import { fetch, memory } from './app'
import { refreshDerived } from './cron/refresh-derived'
import { reportBackground } from './observability/reporter'
import { isResizedImage, unresizedImage } from './request/unresized-image'
import { consume } from './sync/consume'
import { databasesOf } from './data/databases'

export default {
  fetch(request: Request, env: Env, ctx: ExecutionContext) {
    return isResizedImage(request) ? unresizedImage(request, env) : fetch(request, env, ctx)
  },
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
  // Catalog changes and their dead letters (docs/sync.md); each dead message is reported once.
  async queue(batch, env, ctx) {
    await consume(batch, databasesOf(env), (reason, kind) =>
      reportBackground(new Error(`catalog change dead: ${reason}`), {
        dsn: env.SENTRY_DSN,
        environment: env.ENVIRONMENT,
        waitUntil: (promise) => ctx.waitUntil(promise),
        tags: { sync: 'dead', kind },
      }),
    )
  },
} satisfies ExportedHandler<Env>
