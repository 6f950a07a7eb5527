/** The page `npm start` serves is a build (dist/web); on a fresh clone it is built once, before the API starts. */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Logger } from 'pino';
import { REPO_ROOT } from './config.js';
import { StartupError } from './startup-error.js';

export function isWebBuilt(webRoot: string): boolean {
  return existsSync(path.join(webRoot, 'index.html')) && existsSync(path.join(webRoot, '404.html'));
}

/** Runs npm run build:web; `abort` (a shutdown) stops the whole build, webpack included. */
export async function buildWeb(logger: Logger, abort: AbortSignal): Promise<void> {
  const started = Date.now();
  logger.info('the page is not built yet: running npm run build:web (once; some 15 s, longer on a busy machine)');
  const output: string[] = [];
  const code = await new Promise<number | null>((resolve) => {
    // Its own process group, so that npm, the shell and webpack below it are stopped together.
    const child = spawn('npm', ['run', 'build:web'], {
      cwd: REPO_ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    const stopBuild = () => {
      if (child.pid !== undefined && child.exitCode === null) {
        try {
          process.kill(-child.pid, 'SIGTERM');
        } catch {
          // Already gone.
        }
      }
    };
    abort.addEventListener('abort', stopBuild, { once: true });
    process.once('exit', stopBuild);
    child.once('exit', () => {
      abort.removeEventListener('abort', stopBuild);
      process.removeListener('exit', stopBuild);
    });
    const keep = (chunk: Buffer) => {
      output.push(chunk.toString('utf8'));
      if (output.length > 200) output.shift();
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.once('error', () => resolve(null));
    child.once('exit', (exitCode) => resolve(exitCode));
  });
  if (abort.aborted) return;
  if (code !== 0) {
    const tail = output.join('').split('\n').slice(-25).join('\n');
    throw new StartupError(
      `Building the page failed (npm run build:web). Its last lines:\n${tail}\nFix the build, or run npm run build:web yourself, then npm start.`,
    );
  }
  logger.info({ seconds: Math.round((Date.now() - started) / 100) / 10 }, 'page built');
}
