import type { Logger } from 'pino';
import { isConnectionError, type Db } from '../db.js';
import { ServiceUnavailableError } from '../errors.js';
import type { ConfirmationQueue } from '../confirmation-queue.js';
import type { DemoRequestInput } from '../../domain/demo-request.js';
import { insertDemoRequest, type StoredDemoRequest } from './repository.js';

export interface DemoRequestDeps {
  db: Db;
  queue: ConfirmationQueue;
  logger: Logger;
}

export async function submitDemoRequest(deps: DemoRequestDeps, input: DemoRequestInput): Promise<StoredDemoRequest> {
  let stored: StoredDemoRequest;
  try {
    stored = await insertDemoRequest(deps.db, input);
  } catch (err) {
    if (isConnectionError(err)) {
      deps.logger.error({ err }, 'database unreachable: demo request not stored');
      throw new ServiceUnavailableError(
        'We could not save your request right now. Nothing was stored; please try again in a few minutes.',
      );
    }
    throw err;
  }
  try {
    await deps.queue.enqueue(stored.id);
  } catch (err) {
    // The row records that its confirmation is pending; the worker's sweep enqueues it again.
    deps.logger.warn({ err, demoRequestId: stored.id }, 'queue unreachable: confirmation left to the sweep');
  }
  deps.logger.info({ demoRequestId: stored.id, timeSlot: stored.timeSlot.toISOString() }, 'demo request stored');
  return stored;
}
