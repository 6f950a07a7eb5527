/** Whether an answer is what the OpenAPI document says it is: its status's schema, components resolved as 3.1 reads them. */
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { expect } from 'chai';
import { openApiDocument } from '../api/openapi.js';

type Document = {
  paths: Record<
    string,
    Record<string, { responses: Record<string, { content?: Record<string, { schema: { $ref?: string } }> }> }>
  >;
  components: { schemas: Record<string, object> };
};

export function expectDocumented(path: string, method: string, status: number, body: unknown): void {
  const document = openApiDocument() as unknown as Document;
  const ajv = new Ajv2020({ strict: false });
  addFormats.default(ajv);
  ajv.addSchema({ $id: 'doc', components: document.components });
  const schema = document.paths[path]?.[method]?.responses[String(status)]?.content?.['application/json']?.schema;
  if (!schema) throw new Error(`${method.toUpperCase()} ${path} documents no JSON answer for ${status}`);
  const validate = ajv.compile(schema.$ref ? { $ref: `doc${schema.$ref}` } : schema);
  expect(validate(body), `${method.toUpperCase()} ${path} ${status}: ${JSON.stringify(validate.errors)}`).to.equal(
    true,
  );
}
