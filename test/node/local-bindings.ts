// The local bindings of a `--persist-to` folder, as wrangler's platform proxy opens them.
import { join } from 'node:path'
import { getPlatformProxy } from 'wrangler'

/** The local bindings of the persist folder `persistTo`, for `use`. */
export async function withBindings<T>(
  persistTo: string,
  use: (env: Env) => Promise<T>,
): Promise<T> {
  const { env, dispose } = await getPlatformProxy<Env>({
    persist: { path: join(persistTo, 'v3') },
    remoteBindings: false,
  })
  try {
    return await use(env)
  } finally {
    await dispose()
  }
}
