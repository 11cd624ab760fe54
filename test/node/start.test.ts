// `npm start` (scripts/start.ts): the seed and wrangler dev side by side, wrangler dev's build
// held until the seed has ended (scripts/seed-gate.ts). A failed seed stops everything with its
// error; a signal stops everything; no page is answered before the seed has ended.
import type { ChildProcess } from 'node:child_process'
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { freePort } from '../../scripts/import/host'
import { openSeedGate, SEED_GATE, seedFinished } from '../../scripts/seed-gate'
import { splitArgs } from '../../scripts/start'

let dir = ''
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'care-start-'))
})
afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

/** A process with its output gathered, and a promise of its exit status. */
function run(command: string, args: string[], env: Record<string, string> = {}) {
  const child = spawn(command, args, {
    env: { ...process.env, ...env },
    // A group of its own, as a terminal gives npm start: what is left of it can be told.
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const out = { text: '' }
  child.stdout.on('data', (chunk: Buffer) => (out.text += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (out.text += chunk.toString()))
  const exited = once(child, 'exit').then(([code]) => code as number | null)
  return { child, out, exited }
}

/** `npm start` on 127.0.0.1:`port` with `args`. */
function npmStart(port: number, args: string[]) {
  const local = ['--port', String(port), '--ip', '127.0.0.1', '--inspector-port', '0']
  return run('node_modules/.bin/tsx', ['scripts/start.ts', ...args, ...local])
}

/** Resolves once `test` holds: a poll of another process, which announces nothing. */
async function until(test: () => boolean): Promise<void> {
  await vi.waitFor(
    () => {
      if (!test()) throw new Error('not yet')
    },
    { timeout: 120_000, interval: 50 },
  )
}

/** Whether any process of `child`'s group (npm start's, as a terminal has it) is left. */
function groupAlive(child: ChildProcess): boolean {
  try {
    process.kill(-(child.pid ?? 0), 0)
    return true
  } catch {
    return false
  }
}

describe('splitArgs', () => {
  it('gives the seed its options, wrangler dev the rest, and both --persist-to', () => {
    expect(
      splitArgs([
        '--port',
        '8791',
        '--scale=0.1',
        '--cities',
        '20',
        '--force',
        '--persist-to',
        'D',
      ]),
    ).toEqual({
      seed: ['--scale=0.1', '--cities', '20', '--force', '--persist-to', 'D'],
      dev: ['--port', '8791', '--persist-to', 'D'],
    })
  })
})

describe('the seed gate', () => {
  it('holds a build until the seed has ended, then lets it go on', async () => {
    const gate = await openSeedGate()
    try {
      let done = false
      const waiting = seedFinished(gate.url).then(() => (done = true))
      await until(() => gate.waiting() === 1)
      expect(done).toBe(false)
      gate.settle(null)
      await waiting
      // A build that asks afterwards (wrangler dev rebuilding on a change) goes on at once.
      await seedFinished(gate.url)
    } finally {
      await gate.close()
    }
  })

  it("fails the build with the seed's failure", async () => {
    const gate = await openSeedGate()
    try {
      const failed = seedFinished(gate.url)
      await until(() => gate.waiting() === 1)
      gate.settle('scripts/seed.ts ended with 1')
      await expect(failed).rejects.toThrow('the seed failed: scripts/seed.ts ended with 1')
    } finally {
      await gate.close()
    }
  })

  it('fails the build when npm start is gone', async () => {
    const gate = await openSeedGate()
    const orphaned = seedFinished(gate.url)
    await until(() => gate.waiting() === 1)
    await gate.close()
    await expect(orphaned).rejects.toThrow('npm start stopped before the seed ended')
  })

  it('is not asked outside npm start', async () => {
    await expect(seedFinished(undefined)).resolves.toBeUndefined()
  })

  it('is what the asset build (wrangler dev [build]) ends with', async () => {
    const gate = await openSeedGate()
    try {
      const build = run('node_modules/.bin/tsx', ['scripts/build-assets.ts'], {
        [SEED_GATE]: gate.url,
      })
      await until(() => gate.waiting() === 1 || build.child.exitCode !== null)
      // Built, and still running: waiting for the seed.
      expect(build.out.text).toContain('assets: /assets/')
      expect(build.child.exitCode).toBeNull()
      expect(gate.waiting()).toBe(1)
      gate.settle(null)
      expect(await build.exited).toBe(0)
    } finally {
      await gate.close()
    }
  }, 60_000)
})

describe('npm start', () => {
  it("stops wrangler dev and ends with the seed's error when the seed fails", async () => {
    // A persistence folder that is a file: the seed cannot open its D1.
    const file = join(dir, 'not-a-folder')
    await writeFile(file, '')
    const port = await freePort()
    const start = npmStart(port, ['--persist-to', file])
    expect(await start.exited).toBe(1)
    expect(start.out.text).toContain('ENOTDIR')
    expect(start.out.text).toContain('npm start: the seed failed (1); stopping wrangler dev')
    await until(() => !groupAlive(start.child))
    await expect(fetch(`http://127.0.0.1:${port}/robots.txt`)).rejects.toThrow()
  }, 120_000)

  it('answers no request before the seed has ended, and stops everything on a signal', async () => {
    const port = await freePort()
    const start = npmStart(port, [
      '--persist-to',
      join(dir, 'state'),
      '--cities',
      '20',
      '--scale',
      '0.05',
    ])
    try {
      // Polled from the start: the first answer of any kind must come after the seed's end.
      let seededWhenAnswered: boolean | undefined
      for (let i = 0; seededWhenAnswered === undefined; i++) {
        const seeded = /seed: \d+ messages imported/.test(start.out.text)
        const res = await fetch(`http://127.0.0.1:${port}/babysitters/atlanta-ga`).catch(() => null)
        if (res) {
          expect(res.status).toBe(200)
          seededWhenAnswered = seeded
        } else if (i > 2_400)
          throw new Error(`npm start served nothing within 120 s:\n${start.out.text}`)
        else await new Promise((resolve) => setTimeout(resolve, 50))
      }
      expect(seededWhenAnswered).toBe(true)
      // npm start alone gets the signal (as from `kill`): it passes it on and ends last.
      start.child.kill('SIGINT')
      await start.exited
      await until(() => !groupAlive(start.child))
      await expect(fetch(`http://127.0.0.1:${port}/robots.txt`)).rejects.toThrow()
    } finally {
      if (groupAlive(start.child)) process.kill(-(start.child.pid ?? 0), 'SIGKILL')
    }
  }, 240_000)
})
