/**
 * The SMSC of the tests (issue 40): the project's own (smsc/server.ts) on a free port, keeping every text submitted
 * in `received` for the test to read; receipts and messages from a phone go only when the test sends them. Started
 * on a given port, it stands for the same SMSC restarted, empty.
 */
import { startSmsc as startServer, type Smsc as Server, type SubmittedText } from '../smsc/server.js';

export type { SubmittedText };

export const SMSC_SYSTEM_ID = 'converge';
export const SMSC_PASSWORD = 'secret';

export interface Smsc extends Server {
  readonly received: SubmittedText[];
}

export interface TestSmscOptions {
  /** Where it listens: a free port unless told (an SMSC restarted takes its former port). */
  port?: number;
  /** Answers each submit this long after keeping its text (a slow SMSC). */
  answerDelayMs?: number;
}

export async function startSmsc(options: TestSmscOptions = {}): Promise<Smsc> {
  const received: SubmittedText[] = [];
  const server = await startServer({
    systemId: SMSC_SYSTEM_ID,
    password: SMSC_PASSWORD,
    onText: (text) => void received.push(text),
    ...options,
  });
  return { ...server, received };
}
