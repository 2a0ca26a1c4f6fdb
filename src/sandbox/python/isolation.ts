import { execFile } from 'node:child_process';
import { randomInt } from 'node:crypto';
import { access, constants } from 'node:fs/promises';

/** How the worker gets launched, and what that launch is meant to apply. */
export interface IsolationPlan {
  /** Program and arguments put in front of the interpreter (empty: run it directly). */
  prefix: string[];
  /** Unprivileged uid/gid the worker switches to before running model code (root hosts). */
  uid?: number;
  gid?: number;
  /** The launch creates a user namespace (non-root hosts). */
  userNamespace: boolean;
  /** The launch creates a network namespace (the worker sees only a down loopback). */
  netNamespace: boolean;
  /** The worker is pid 1 of its own PID namespace: it cannot see or signal the host, and
   *  when it dies every process it started dies with it. */
  pidNamespace: boolean;
  notes: string[];
}

const UNSHARE_PATHS = ['/usr/bin/unshare', '/bin/unshare', '/usr/sbin/unshare'];

async function findUnshare(): Promise<string | undefined> {
  for (const p of UNSHARE_PATHS) {
    try {
      await access(p, constants.X_OK);
      return p;
    } catch {
      // next
    }
  }
  return undefined;
}

function works(command: string, args: string[]): Promise<boolean> {
  return new Promise((resolve) => {
    execFile(
      command,
      [...args, '/bin/true'],
      { timeout: 10_000, env: { PATH: '/usr/bin:/bin' } },
      (e) => resolve(!e),
    );
  });
}

interface Variant {
  args: string[];
  user: boolean;
  net: boolean;
  pid: boolean;
}

const ROOT_VARIANTS: Variant[] = [
  {
    args: ['--net', '--pid', '--fork', '--kill-child', '--mount-proc'],
    user: false,
    net: true,
    pid: true,
  },
  { args: ['--net'], user: false, net: true, pid: false },
];
const USER_VARIANTS: Variant[] = [
  {
    args: ['--user', '--map-root-user', '--net', '--pid', '--fork', '--kill-child', '--mount-proc'],
    user: true,
    net: true,
    pid: true,
  },
  { args: ['--user', '--map-root-user', '--net'], user: true, net: true, pid: false },
];

let probed: Promise<{ unshare: string; variant: Variant } | undefined> | undefined;

async function probeUnshare(root: boolean) {
  const unshare = await findUnshare();
  if (!unshare) return undefined;
  for (const variant of root ? ROOT_VARIANTS : USER_VARIANTS) {
    if (await works(unshare, variant.args)) return { unshare, variant };
  }
  return undefined;
}

/** A uid no account uses, distinct per sandbox, so RLIMIT_NPROC counts only this worker. */
export function allocateUid(): number {
  return randomInt(200_000, 1_200_000);
}

/**
 * Decides the launch from what this machine allows (probed once per process): as root,
 * namespaces through util-linux `unshare` plus a uid drop inside the worker; otherwise a
 * user namespace if the kernel permits one. Nothing here is claimed as applied: the
 * worker reports what took effect and the capabilities come from that report.
 */
export async function planIsolation(): Promise<IsolationPlan> {
  const root = process.getuid?.() === 0;
  probed ??= probeUnshare(root);
  const found = await probed;
  const notes: string[] = [];
  if (!found) {
    notes.push(
      'no network or PID namespace: util-linux `unshare` is missing or the kernel refused it (install util-linux, or allow unprivileged user namespaces)',
    );
  }
  const plan: IsolationPlan = {
    prefix: found ? [found.unshare, ...found.variant.args, '--'] : [],
    userNamespace: found?.variant.user ?? false,
    netNamespace: found?.variant.net ?? false,
    pidNamespace: found?.variant.pid ?? false,
    notes,
  };
  if (root) {
    const uid = allocateUid();
    plan.uid = uid;
    plan.gid = uid;
  }
  return plan;
}

/**
 * Tasks (processes and threads) the current user runs now. RLIMIT_NPROC counts all of a
 * uid's tasks, so without a dedicated uid the worker's limit must sit above this count.
 */
export async function countUserTasks(uid: number): Promise<number> {
  const { readdir, readFile } = await import('node:fs/promises');
  let total = 0;
  for (const name of await readdir('/proc').catch(() => [] as string[])) {
    if (!/^\d+$/.test(name)) continue;
    const status = await readFile(`/proc/${name}/status`, 'utf8').catch(() => '');
    const uidMatch = /^Uid:\s+(\d+)/m.exec(status);
    if (!uidMatch || Number(uidMatch[1]) !== uid) continue;
    const threads = /^Threads:\s+(\d+)/m.exec(status);
    total += threads ? Number(threads[1]) : 1;
  }
  return total;
}
