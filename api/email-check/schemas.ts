/** The e-mail check's JSON Schemas: the body Ajv validates (routes.ts), and the verdict it answers. */
import type { JSONSchemaType } from 'ajv';
import { EMAIL_MAX_LENGTH, type EmailValidationResult } from '../../domain/email-messages.js';

export interface EmailCheckInput {
  email: string;
}

export const emailCheckSchema: JSONSchemaType<EmailCheckInput> = {
  $id: 'email-check',
  type: 'object',
  additionalProperties: false,
  required: ['email'],
  properties: { email: { type: 'string', maxLength: EMAIL_MAX_LENGTH } },
};

export const emailValidationResultSchema: JSONSchemaType<EmailValidationResult> = {
  type: 'object',
  additionalProperties: false,
  required: ['isValid', 'isDisposable', 'isFreeProvider', 'isRoleEmail'],
  properties: {
    isValid: { type: 'boolean' },
    isDisposable: { type: 'boolean' },
    isFreeProvider: { type: 'boolean' },
    isRoleEmail: { type: 'boolean' },
    reason: { type: 'string', nullable: true },
    suggestion: { type: 'string', nullable: true, description: 'A likely intended address, for a typo.' },
  },
};
