/** Errors the API answers with, and the one middleware that turns any error into the documented body. */
import type { Context, Next } from 'koa';

export interface ErrorBody {
  error: string;
  details: string;
  fields?: Record<string, string>;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly error: string,
    readonly details: string,
    readonly fields?: Record<string, string>,
  ) {
    super(details);
  }

  body(): ErrorBody {
    return this.fields
      ? { error: this.error, details: this.details, fields: this.fields }
      : { error: this.error, details: this.details };
  }
}

export class ServiceUnavailableError extends ApiError {
  constructor(details: string) {
    super(503, 'Service unavailable', details);
  }
}

/** 429, with the Retry-After the error middleware sends. */
export class TooManyRequestsError extends ApiError {
  readonly retryAfterSeconds: number;
  constructor(details: string, retryInMs: number, fields?: Record<string, string>) {
    super(429, 'Too many requests', details, fields);
    this.retryAfterSeconds = Math.max(1, Math.ceil(retryInMs / 1000));
  }
}

interface HttpishError {
  code?: unknown;
  status?: number;
  statusCode?: number;
  type?: string;
  expose?: boolean;
  message?: string;
}

const STATUS_SUMMARIES: Record<number, string> = {
  400: 'Bad request',
  403: 'Forbidden',
  404: 'Not found',
  431: 'Headers too large',
};

/** Errors raised by the body parser and Koa itself, in words for a person. */
function fromHttpError(err: HttpishError): ApiError | undefined {
  const status = err.status ?? err.statusCode;
  if (status === 413 || err.type === 'entity.too.large') {
    return new ApiError(413, 'Payload too large', 'The request body is larger than 16 KB.');
  }
  // co-body marks a body that does not parse as JSON with status 400 and keeps the text it read.
  if (err.type === 'entity.parse.failed' || (err instanceof SyntaxError && status === 400)) {
    if (/only supports object and array/.test(err.message ?? '')) {
      return new ApiError(400, 'Invalid request body', 'The request body must be a JSON object.');
    }
    if (/prototype/.test(err.message ?? '')) {
      return new ApiError(400, 'Invalid request body', 'The request body must not contain a "__proto__" key.');
    }
    return new ApiError(400, 'Malformed JSON', 'The request body is not valid JSON.');
  }
  // zlib's codes (Z_DATA_ERROR, Z_BUF_ERROR …) and brotli's (ERR__ERROR_FORMAT_…): a body declared gzip, deflate
  // or br that does not decompress.
  if (typeof err.code === 'string' && /^(Z_|ERR__ERROR_)/.test(err.code)) {
    return new ApiError(
      400,
      'Malformed body',
      'The request body does not match its Content-Encoding; send it uncompressed or validly compressed.',
    );
  }
  if (status === 415 || err.type === 'encoding.unsupported' || err.type === 'charset.unsupported') {
    return new ApiError(
      415,
      'Unsupported media type',
      'Send the request body as JSON (Content-Type: application/json).',
    );
  }
  if (status !== undefined && status >= 400 && status < 500) {
    return new ApiError(
      status,
      STATUS_SUMMARIES[status] ?? 'Bad request',
      'The request could not be understood. Check the address and try again.',
    );
  }
  return undefined;
}

export async function errorMiddleware(ctx: Context, next: Next): Promise<void> {
  try {
    await next();
  } catch (caught) {
    const known = caught instanceof ApiError ? caught : fromHttpError(caught as HttpishError);
    const apiError =
      known ?? new ApiError(500, 'Internal server error', 'Something went wrong on our side. Please try again.');
    ctx.status = apiError.status;
    ctx.body = apiError.body();
    if (apiError instanceof TooManyRequestsError) ctx.set('Retry-After', String(apiError.retryAfterSeconds));
    if (!known || apiError.status >= 500) ctx.app.emit('error', caught, ctx);
  }
}
