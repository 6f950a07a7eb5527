import Router from '@koa/router';
import type { ErrorObject } from 'ajv';
import { ATTRIBUTION_MAX_LENGTH } from '../../domain/attribution.js';
import {
  demoRequestSchema,
  fieldLabels,
  IDEMPOTENCY_HEADER,
  normaliseDemoRequestBody,
  requiredMessage,
  TIME_ZONE_MAX_LENGTH,
  type DemoRequestField,
  type DemoRequestInput,
} from '../../domain/demo-request.js';
import type { LogFields } from '../request-log.js';
import { demoRequestProblems } from '../../server-shared/demo-request-rules.js';
import { requireAdminToken } from '../admin-auth.js';
import { readUnlessDatabaseDown } from '../db.js';
import { idempotencyKeyOf } from '../idempotency.js';
import { rateLimit, type RateLimiter, type RequestLimits } from '../rate-limit.js';
import { validateBody } from '../validation.js';
import { answerTrapped, honeypot } from './honeypot.js';
import { ApiError } from '../errors.js';
import { listBookings, type ListPosition } from './repository.js';
import { submitDemoRequest, type DemoRequestDeps } from './book.js';

function messageFor(error: ErrorObject, field: string): string {
  if (field === 'attribution') return `Attribution must be an object of texts of at most ${ATTRIBUTION_MAX_LENGTH} characters.`;
  if (field === 'visitorTimeZone') return `visitorTimeZone must be an IANA time zone name (such as America/New_York) of at most ${TIME_ZONE_MAX_LENGTH} characters.`;
  const known = field in fieldLabels ? (field as DemoRequestField) : undefined;
  if (!known) return 'The request body must be a JSON object.';
  switch (error.keyword) {
    case 'required':
    case 'minLength':
      return requiredMessage(known);
    case 'maxLength':
      return `${fieldLabels[known]} must be at most ${String(error.params.limit)} characters.`;
    default:
      return `${fieldLabels[known]} must be text.`;
  }
}

const LIST_LIMIT = 100;

/** The `next` cursor of the operations list: its page's last position, as opaque text. */
function cursorOf(position: ListPosition): string {
  return Buffer.from(`${position.createdAt} ${position.id}`).toString('base64url');
}

const POSITION = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z) ([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/;

/** The position a `cursor` names; a 400 for anything no page of the list gave. */
function positionOf(cursor: string): ListPosition {
  const match = POSITION.exec(Buffer.from(cursor, 'base64url').toString());
  if (!match) throw new ApiError(400, 'Invalid cursor', 'The cursor must be the `next` value of an earlier page of this list.');
  return { createdAt: match[1]!, id: match[2]! };
}

export function demoRequestRoutes(
  deps: DemoRequestDeps & {
    timeZone: string;
    minNoticeMinutes: number;
    now: () => Date;
    adminToken: string | undefined;
    limits?: RequestLimits;
    /** Counts wrong operations tokens. */
    adminLimiter: RateLimiter;
  },
): Router {
  const router = new Router();
  // For operations: the bookings, newest first, and where each confirmation stands; `next` is the cursor of the
  // page after (?cursor=), null on the last page.
  router.get('/api/demo-requests', requireAdminToken(deps.adminToken, deps.adminLimiter), async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    const { cursor } = ctx.query;
    const after = typeof cursor === 'string' && cursor !== '' ? positionOf(cursor) : undefined;
    const page = await readUnlessDatabaseDown(() => listBookings(deps.db, LIST_LIMIT, after), deps.logger, 'demo requests');
    ctx.body = { demoRequests: page.bookings, next: page.next ? cursorOf(page.next) : null };
  });
  router.post(
    '/api/demo-request',
    rateLimit(deps.limits?.limiter, {
      name: 'demo-request',
      limit: deps.limits?.demoRequestsPerHour ?? 0,
      windowMs: 3_600_000,
      details: (minutes) => `Several demo requests came from your network in the last hour. Please try again in about ${minutes} minutes.`,
    }),
    honeypot(),
    validateBody<DemoRequestInput>({
      schema: demoRequestSchema,
      normalise: normaliseDemoRequestBody,
      messages: messageFor,
      problems: (body) => demoRequestProblems(body, deps.now(), deps.timeZone, deps.minNoticeMinutes),
      summary: 'Invalid demo request',
    }),
    answerTrapped(deps),
    async (ctx) => {
      const answer = await submitDemoRequest(deps, ctx.state.body, idempotencyKeyOf(ctx.get(IDEMPOTENCY_HEADER)));
      if (answer.replayed) ctx.set('Idempotent-Replayed', 'true');
      // The booking stored goes on the request's one log line (one write per booking, with its request id).
      if (answer.stored) ctx.state.logFields = answer.stored satisfies LogFields;
      ctx.status = answer.status;
      ctx.body = answer.body;
    },
  );
  return router;
}
