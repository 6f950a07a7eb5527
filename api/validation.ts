/** Request validation as route middleware: one Ajv instance, each schema compiled once. */
import { bodyParser } from '@koa/bodyparser';
import { Ajv, type ErrorObject, type JSONSchemaType } from 'ajv';
import type { Context, Next, ParameterizedContext } from 'koa';
import { ApiError } from './errors.js';

// A key a schema does not list is refused (every body schema says additionalProperties: false), never dropped
// silently, as docs/api.md promises ("no key is dropped in silence").
const ajv = new Ajv({ allErrors: true, removeAdditional: false, coerceTypes: false });

/** The largest JSON body a route reads. */
export const BODY_LIMIT = '16kb';

const parseJson = bodyParser({ enableTypes: ['json'], jsonLimit: BODY_LIMIT, encoding: 'utf-8' });

/**
 * Reads a JSON body into ctx.request.body, as the route's own step: each route that takes a body reads it in its
 * chain (validateBody does), after its rate limit, so no request is read before a route wants it and a route with
 * a reader of its own (the funnel's beacons) is never preceded by this one. Any other type is left unread.
 */
export async function readJsonBody(ctx: Context, next: Next): Promise<void> {
  if (ctx.request.body === undefined && ctx.is('application/json')) await parseJson(ctx, async () => {});
  await next();
}

export type FieldMessages = (error: ErrorObject, field: string) => string;

export interface BodyRules<T> {
  schema: JSONSchemaType<T>;
  /** Runs before the schema, on the parsed body (trimming, say). */
  normalise?: (body: unknown) => unknown;
  /** Words for a person for each schema error. */
  messages: FieldMessages;
  /** Rules beyond the schema, on a body the schema accepted. */
  problems?: (body: T, ctx: Context) => Record<string, string | undefined>;
  summary: string;
  /** Also a text/plain body, read as JSON: what navigator.sendBeacon sends a string as. */
  textAsJson?: boolean;
  /**
   * Also an application/x-www-form-urlencoded body, parsed by its route into an object of texts: what a page's form
   * posts without script (api/no-script/routes.ts).
   */
  form?: boolean;
}

function fieldOf(error: ErrorObject): string {
  if (error.keyword === 'required') return String(error.params.missingProperty);
  return error.instancePath.split('/')[1] ?? '';
}

/** A key the schema does not list, by its path from the body ("isAdmin", "attribution.gclid"). */
function extraKeyOf(error: ErrorObject): string | undefined {
  if (error.keyword !== 'additionalProperties') return undefined;
  const parents = error.instancePath
    .split('/')
    .slice(1)
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'));
  return [...parents, String(error.params.additionalProperty)].join('.');
}

/** The same words on every route: the key, quoted (it may be empty, or end in a space). */
export const extraKeyMessage = (key: string): string => `${JSON.stringify(key)} is not a field of this request.`;

function invalid(summary: string, fields: Record<string, string>): ApiError {
  return new ApiError(400, summary, Object.values(fields).join(' '), fields);
}

/** A text body's JSON value; undefined when it is not JSON (refused below as not an object). */
function jsonOf(text: unknown): unknown {
  if (typeof text !== 'string') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** What the handlers after validateBody find in ctx.state. */
export interface ValidatedBody<T> {
  body: T;
}

/**
 * Validates ctx.request.body and leaves the checked value, typed, in ctx.state.body: a route that lists this
 * middleware gets a handler whose ctx.state.body is T, with no cast.
 */
export function validateBody<T>(rules: BodyRules<T>) {
  const validate = ajv.compile<T>(rules.schema);
  return async (ctx: ParameterizedContext<ValidatedBody<T>>, next: Next): Promise<void> => {
    const asText = rules.textAsJson === true && Boolean(ctx.is('text/plain'));
    const asForm = rules.form === true && Boolean(ctx.is('application/x-www-form-urlencoded'));
    if (!asText && !asForm && !ctx.is('application/json')) {
      throw new ApiError(
        415,
        'Unsupported media type',
        'Send the request body as JSON (Content-Type: application/json).',
      );
    }
    // JSON is UTF-8 (RFC 8259); a body declared in another charset would be stored garbled.
    const charset = ctx.request.charset.toLowerCase();
    if (charset !== '' && charset !== 'utf-8' && charset !== 'utf8') {
      throw new ApiError(
        415,
        'Unsupported media type',
        'Send the request body as UTF-8 JSON (Content-Type: application/json; charset=utf-8).',
      );
    }
    await readJsonBody(ctx, async () => {});
    const given = asText ? jsonOf(ctx.request.body) : ctx.request.body;
    const body = rules.normalise ? rules.normalise(given) : given;
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      throw new ApiError(400, rules.summary, 'The request body must be a JSON object.');
    }
    const fields: Record<string, string> = {};
    if (!validate(body)) {
      for (const error of validate.errors ?? []) {
        const extraKey = extraKeyOf(error);
        if (extraKey !== undefined) {
          fields[extraKey] ??= extraKeyMessage(extraKey);
          continue;
        }
        const field = fieldOf(error);
        fields[field] ??= rules.messages(error, field);
      }
      throw invalid(rules.summary, fields);
    }
    for (const [field, problem] of Object.entries(rules.problems?.(body, ctx) ?? {})) {
      if (problem) fields[field] = problem;
    }
    if (Object.keys(fields).length > 0) throw invalid(rules.summary, fields);
    ctx.state.body = body;
    await next();
  };
}
