/**
 * Everything a fault test starts is registered here, so that it is stopped even when a test fails, mocha is
 * interrupted or the process exits early: child processes by PID, PostgreSQL clusters by their postmaster's PID,
 * temporary folders by path. Each suite's after() hook runs the orderly teardown; this is the safety net.
 */
import { rmSync } from 'node:fs';

const childPids = new Set<number>();
const postmasterPids = new Set<number>();
const tempDirs = new Set<string>();

export function trackChild(pid: number): void {
  if (pid > 0) childPids.add(pid);
}
export function untrackChild(pid: number): void {
  childPids.delete(pid);
}
export function trackPostmaster(pid: number): void {
  if (pid > 0) postmasterPids.add(pid);
}
export function untrackPostmaster(pid: number): void {
  postmasterPids.delete(pid);
}
export function trackTempDir(dir: string): void {
  tempDirs.add(dir);
}
export function untrackTempDir(dir: string): void {
  tempDirs.delete(dir);
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // Already gone.
  }
}

/** Synchronous, so it can run in an 'exit' handler. */
function cleanUpEverything(): void {
  for (const pid of childPids) signal(pid, 'SIGKILL');
  childPids.clear();
  // SIGQUIT is PostgreSQL's immediate shutdown: the postmaster takes its backends down with it.
  for (const pid of postmasterPids) signal(pid, 'SIGQUIT');
  postmasterPids.clear();
  for (const dir of tempDirs) {
    try {
      rmSync(dir, { recursive: true, force: true });
    } catch {
      // A server still writing into it; nothing more to do from an exit handler.
    }
  }
  tempDirs.clear();
}

let installed = false;
function installExitCleanup(): void {
  if (installed) return;
  installed = true;
  process.on('exit', cleanUpEverything);
  for (const name of ['SIGINT', 'SIGTERM'] as const) {
    process.once(name, () => {
      cleanUpEverything();
      process.exit(130);
    });
  }
}
installExitCleanup();
