// CPU time of the servers this Node process started, read from /proc. Only our own descendants
// count: other workerd processes on the machine (a test run's) are not ours.
import { readdir, readFile } from 'node:fs/promises'

interface Proc {
  pid: number
  ppid: number
  comm: string
  /** User and system time, in clock ticks. */
  ticks: number
}

/** /proc counts CPU time in clock ticks: 100 a second on Linux (`getconf CLK_TCK`). */
const MS_PER_TICK = 10

async function readProc(pid: number): Promise<Proc | null> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => null)
  if (stat === null) return null
  // The command name is in parentheses and may hold spaces; the fields after it are numbers.
  const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'))
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  return {
    pid,
    ppid: Number(fields[1]),
    comm,
    ticks: Number(fields[11]) + Number(fields[12]),
  }
}

/** The processes below `root` in the process tree (`root` itself not included). */
async function below(root: number): Promise<Proc[]> {
  const procs: Proc[] = []
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    const proc = await readProc(Number(entry))
    if (proc) procs.push(proc)
  }
  const ours = new Set([root])
  // Parents may be listed after their children: grow the set until it stops growing.
  for (let size = 0; size !== ours.size;) {
    size = ours.size
    for (const p of procs) if (ours.has(p.ppid)) ours.add(p.pid)
  }
  return procs.filter((p) => p.pid !== root && ours.has(p.pid))
}

/** The workerd processes below this one in the process tree (also one run by callgrind). */
export async function childWorkerds(): Promise<number[]> {
  return (await below(process.pid))
    .filter((p) => p.comm === 'workerd' || p.comm.startsWith('callgrind'))
    .map((p) => p.pid)
}

/** Every process below `pid`: a server that forks its workers. */
export async function descendants(pid: number): Promise<number[]> {
  return (await below(pid)).map((p) => p.pid)
}

/** The user and system CPU time the processes have used so far, in ms. */
export async function cpuTime(pids: readonly number[]): Promise<number> {
  let ticks = 0
  for (const pid of pids) {
    const proc = await readProc(pid)
    if (!proc) throw new Error(`workerd ${pid} is gone`)
    ticks += proc.ticks
  }
  return ticks * MS_PER_TICK
}
