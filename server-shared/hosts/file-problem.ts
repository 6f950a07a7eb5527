/** How a team file's schema error (TEAM_FILE) stops start-up: the field and what is wrong with it. */
import type { ErrorObject } from 'ajv';
import { ConfigError } from '../settings.js';

/**
 * A file's first schema error as a person reads it: the field's path and what is wrong with it; `eitherShape`, what
 * a field of two shapes (a oneOf) takes.
 */
export function fileProblem(
  errors: ErrorObject[] | null | undefined,
  source: string,
  eitherShape = 'does not have a shape the field takes',
): ConfigError {
  // A field of two shapes (oneOf) fails each shape before the oneOf itself: say what the field takes.
  const problem = errors?.find((error) => error.keyword === 'oneOf') ?? errors?.[0];
  const field =
    problem?.keyword === 'required'
      ? `${problem.instancePath}/${String(problem.params.missingProperty)}`
      : problem?.instancePath || '/';
  const detail =
    problem?.keyword === 'required'
      ? 'is missing'
      : problem?.keyword === 'additionalProperties'
        ? `has an unknown field "${String(problem.params.additionalProperty)}"`
        : problem?.keyword === 'oneOf'
          ? eitherShape
          : (problem?.message ?? 'is not valid');
  return new ConfigError(`${source}: ${field} ${detail}`);
}
