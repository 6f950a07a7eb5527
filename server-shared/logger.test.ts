import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';

const LOGGER = fileURLToPath(new URL('./logger.ts', import.meta.url));

/** Runs a small program that uses createLogger with stdout a pipe (JSON lines, as in production). */
function runWithLogger(body: string, onLine?: (line: Record<string, unknown>, stop: () => void) => void) {
  const source = `import { createLogger } from ${JSON.stringify(LOGGER)};\nconst logger = createLogger('test', 'info', false);\n${body}`;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', source], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines: Record<string, unknown>[] = [];
  let pending = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    pending += chunk;
    let end: number;
    while ((end = pending.indexOf('\n')) >= 0) {
      const line = JSON.parse(pending.slice(0, end)) as Record<string, unknown>;
      pending = pending.slice(end + 1);
      lines.push(line);
      onLine?.(line, () => child.kill('SIGKILL'));
    }
  });
  return new Promise<{ code: number | null; lines: Record<string, unknown>[] }>((resolve) =>
    child.on('close', (code) => resolve({ code, lines })),
  );
}

describe('createLogger (JSON lines on stdout)', function () {
  this.timeout(20_000);

  it('keeps every line, the last one too, when the process exits with exit(1) right after logging', async () => {
    const { code, lines } = await runWithLogger(
      `for (let i = 0; i < 50; i++) logger.info({ i }, 'line');\nlogger.fatal('last words');\nprocess.exit(1);`,
    );
    expect(code).to.equal(1);
    expect(lines.map((line) => line.msg)).to.deep.equal([...Array.from({ length: 50 }, () => 'line'), 'last words']);
  });

  it('writes a lone line of a process that keeps running, without waiting for a batch to fill', async () => {
    // The program never exits by itself: the line must come out while it runs (the test stops it once seen).
    const { lines } = await runWithLogger(
      `logger.info('api listening');\nsetInterval(() => {}, 1000);`,
      (line, stop) => {
        if (line.msg === 'api listening') stop();
      },
    );
    expect(lines.map((line) => line.msg)).to.deep.equal(['api listening']);
  });

  it('writes an error without the addresses it quotes or the row values PostgreSQL details', async () => {
    const { lines } = await runWithLogger(
      `const err = Object.assign(new Error('550 5.1.1 <ada@orbital-freight.com>: no such mailbox'), { code: '23505', detail: 'Key (email)=(ada@orbital-freight.com) already exists.' });\nlogger.error({ err }, 'failed');`,
    );
    const err = lines[0]?.err as Record<string, unknown>;
    expect(err).to.include({ message: '550 5.1.1 <[address]>: no such mailbox', code: '23505' });
    expect(err).to.not.have.property('detail');
    expect(JSON.stringify(lines)).to.not.include('ada@');
  });
});
