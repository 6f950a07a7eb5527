/** Request validation as route middleware: one Ajv instance, each schema compiled once. */
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import type { Context, Next } from 'koa';
import { ApiError } from './errors.js';

const ajv = new Ajv({ allErrors: true, removeAdditional: 'all', coerceTypes: false });

export type FieldMessages = (error: ErrorObject, field: string) => string;

export interface BodyRules<T> {
  schema: object;
  /** Runs before the schema, on the parsed body (trimming, say). */
  normalise?: (body: unknown) => unknown;
  /** Words for a person for each schema error. */
  messages: FieldMessages;
  /** Rules beyond the schema, on a body the schema accepted. */
  problems?: (body: T, ctx: Context) => Record<string, string | undefined>;
  summary: string;
}

function fieldOf(error: ErrorObject): string {
  if (error.keyword === 'required') return String(error.params.missingProperty);
  return error.instancePath.split('/')[1] ?? '';
}

/** Validates ctx.request.body and leaves the checked value in ctx.state.body. */
export function validateBody<T>(rules: BodyRules<T>) {
  const validate: ValidateFunction = ajv.compile(rules.schema);
  return async (ctx: Context, next: Next): Promise<void> => {
    if (!ctx.is('application/json')) {
      throw new ApiError(415, 'Unsupported media type', 'Send the request body as JSON (Content-Type: application/json).');
    }
    // JSON is UTF-8 (RFC 8259); a body declared in another charset would be stored garbled.
    const charset = ctx.request.charset.toLowerCase();
    if (charset !== '' && charset !== 'utf-8' && charset !== 'utf8') {
      throw new ApiError(415, 'Unsupported media type', 'Send the request body as UTF-8 JSON (Content-Type: application/json; charset=utf-8).');
    }
    const body = rules.normalise ? rules.normalise(ctx.request.body) : ctx.request.body;
    const fields: Record<string, string> = {};
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      throw new ApiError(400, rules.summary, 'The request body must be a JSON object.');
    }
    if (!validate(body)) {
      for (const error of validate.errors ?? []) {
        const field = fieldOf(error);
        fields[field] ??= rules.messages(error, field);
      }
    } else if (rules.problems) {
      for (const [field, problem] of Object.entries(rules.problems(body as T, ctx))) {
        if (problem) fields[field] = problem;
      }
    }
    const messages = Object.values(fields);
    if (messages.length > 0) {
      throw new ApiError(400, rules.summary, messages.join(' '), fields);
    }
    ctx.state.body = body as T;
    await next();
  };
}
