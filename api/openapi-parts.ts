/**
 * What each route module's OpenAPI description is made of: the part it exports (its path items and the schemas they
 * name), and the pieces every part shares (the error answer and its refusals, the operations token, the translation
 * of Ajv's schemas). openapi.ts assembles the parts into the document.
 */
import type { JSONSchemaType } from 'ajv';
import type * as oas from 'openapi3-ts/oas31';
import type { ErrorBody } from './errors.js';

/**
 * One route module's share of the document. Its schemas are written as Ajv reads them (draft 7 with `nullable`),
 * request bodies being the very objects the routes validate with; the assembler writes them as OpenAPI 3.1 does.
 */
export interface OpenApiPart {
  paths?: oas.PathsObject;
  webhooks?: Record<string, oas.PathItemObject>;
  components?: {
    schemas?: Record<string, object>;
    securitySchemes?: Record<string, oas.SecuritySchemeObject>;
  };
}

type Schema = Record<string, unknown>;

/**
 * Ajv's schemas (JSON Schema draft 7 with Ajv's `nullable`) as OpenAPI 3.1 writes them (JSON Schema 2020-12):
 * `nullable: true` becomes a type that also allows null. Nothing else changes.
 */
export function toOpenApiSchema(schema: object): oas.SchemaObject {
  const walk = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(walk);
    if (typeof value !== 'object' || value === null) return value;
    const { nullable, ...rest } = value as Schema;
    const out: Schema = Object.fromEntries(Object.entries(rest).map(([key, inner]) => [key, walk(inner)]));
    if (nullable === true && typeof out.type === 'string') out.type = [out.type, 'null'];
    return out;
  };
  // The walk keeps the shape it is given; the tests validate the document it goes into with an OpenAPI validator.
  return walk(schema) as oas.SchemaObject;
}

export const stringOrNull = (description: string) => ({ type: ['string', 'null'], description });

const errorBodySchema: JSONSchemaType<ErrorBody> = {
  type: 'object',
  additionalProperties: false,
  required: ['error', 'details'],
  properties: {
    error: { type: 'string', description: 'A short summary, such as "Invalid demo request".' },
    details: { type: 'string', description: 'What went wrong, in words for a person.' },
    fields: {
      type: 'object',
      nullable: true,
      description: 'For a refused body: a message per field.',
      required: [],
      additionalProperties: { type: 'string' },
    },
  },
};

/** The error answer every route gives, and the operations token (api/admin/auth.ts) the operations routes take. */
export const sharedOpenApi: OpenApiPart = {
  components: {
    schemas: { Error: errorBodySchema },
    securitySchemes: { adminToken: { type: 'http', scheme: 'bearer', description: 'ADMIN_TOKEN' } },
  },
};

/** A JSON body of the named schema (a part's own, or one of another part). */
export const json = (schema: string) => ({
  'application/json': { schema: { $ref: `#/components/schemas/${schema}` } },
});
export const answer = (description: string, schema: string): oas.ResponseObject => ({
  description,
  content: json(schema),
});
export const refused = (description: string): oas.ResponseObject => answer(description, 'Error');
export const tooMany: oas.ResponseObject = {
  description: "Too many requests from this client, or past a recipient's ceilings; the body says when to come back.",
  headers: { 'Retry-After': { description: 'Seconds until a new try can succeed.', schema: { type: 'integer' } } },
  content: json('Error'),
};
export const unreadable = refused('The database does not answer; nothing was read or changed.');
export const unchanged = refused('The database does not answer; nothing was changed.');
/** A JSON body refused before it is read: too large, or not JSON. */
export const unreadBodyRefusals: oas.ResponsesObject = {
  '413': refused('The body is larger than 16 KB.'),
  '415': refused('The body is not UTF-8 JSON.'),
};
export const bodyRefusals: oas.ResponsesObject = {
  '400': refused(
    'The body is not valid: `fields` says what is wrong with each field, and names each key the body may not carry.',
  ),
  ...unreadBodyRefusals,
};

export const uuidParameter = (name: string, description: string): oas.ParameterObject => ({
  name,
  in: 'path',
  required: true,
  description,
  schema: { type: 'string', format: 'uuid' },
});

/** Behind the operations token alone. */
export const adminOnly: Pick<oas.OperationObject, 'security'> = { security: [{ adminToken: [] }] };
export const adminRefusals: oas.ResponsesObject = {
  '401': refused('The operations token is missing or wrong.'),
  '429': tooMany,
};
/** The operations token, or the sales page's session cookie (whose changes carry the CSRF token: admin/sessions.ts). */
export const adminOrSession: Pick<oas.OperationObject, 'security'> = {
  security: [{ adminToken: [] }, { adminSession: [] }],
};
export const sessionRefusals: oas.ResponsesObject = {
  '401': refused('The operations token is missing or wrong, or the session has ended.'),
  '429': tooMany,
};
