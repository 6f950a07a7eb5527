/**
 * The SMSC of the tests (issue 40): the project's own (smsc/server.ts) on a free port, keeping every text submitted
 * in `received` for the test to read; receipts and messages from a phone go only when the test sends them.
 */
import { startSmsc as startServer, type Smsc as Server, type SubmittedText } from '../smsc/server.js';

export type { SubmittedText };

export const SMSC_SYSTEM_ID = 'converge';
export const SMSC_PASSWORD = 'secret';

export interface Smsc extends Server {
  readonly received: SubmittedText[];
}

export async function startSmsc(): Promise<Smsc> {
  const received: SubmittedText[] = [];
  const server = await startServer({
    systemId: SMSC_SYSTEM_ID,
    password: SMSC_PASSWORD,
    onText: (text) => void received.push(text),
  });
  return { ...server, received };
}
