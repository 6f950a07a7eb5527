/**
 * The form's honeypot: a field hidden from people and screen readers that only a bot fills. Such a request is
 * answered exactly like a booking (201, the same shape) so the bot learns nothing, and nothing is stored or sent.
 */
import { randomUUID } from 'node:crypto';
import type { Context, Next } from 'koa';
import type { Logger } from 'pino';
import { HONEYPOT_FIELD } from '../../domain/demo-request.js';
import { createdAnswer } from './service.js';

function asInstant(value: unknown, fallback: Date): Date {
  const instant = typeof value === 'string' ? new Date(value) : fallback;
  return Number.isNaN(instant.getTime()) ? fallback : instant;
}

export function honeypot(now: () => Date, linkSecret: string) {
  return async (ctx: Context, next: Next): Promise<void> => {
    const body: unknown = ctx.request.body;
    if (typeof body === 'object' && body !== null && !Array.isArray(body) && Object.hasOwn(body, HONEYPOT_FIELD)) {
      const fields = body as Record<string, unknown>;
      const trap = fields[HONEYPOT_FIELD];
      delete fields[HONEYPOT_FIELD];
      if (trap !== '' && trap !== null && trap !== undefined) {
        (ctx.state.log as Logger).warn({ ip: ctx.ip, honeypot: HONEYPOT_FIELD }, 'honeypot filled: request dropped, nothing stored');
        // Its invitation link is signed like a real one's; it leads to the 404 that any unknown booking gets.
        ctx.status = 201;
        ctx.body = createdAnswer(randomUUID(), now(), asInstant(fields.timeSlot, now()), linkSecret);
        return;
      }
    }
    await next();
  };
}
