import { styled } from 'styled-components';
import { answerField, type RoutingAnswers, type RoutingQuestion } from '../../../domain/routing.js';
import { FieldError } from '../../components/form-parts.js';

export const Field = styled.div`
  display: grid;
  gap: ${({ theme }) => theme.space[1]};
  label {
    font-weight: 600;
    font-size: ${({ theme }) => theme.text.sm};
  }
`;

export const Select = styled.select<{ $invalid: boolean }>`
  width: 100%;
  min-height: 44px;
  border: 1px solid ${({ theme, $invalid }) => ($invalid ? theme.colors.danger : theme.colors.borderStrong)};
  border-radius: ${({ theme }) => theme.radius.sm};
  background: #fff;
  padding: ${({ theme }) => `${theme.space[2]} ${theme.space[3]}`};
  font-size: ${({ theme }) => theme.text.md};
  &:focus-visible {
    outline: 3px solid ${({ theme }) => theme.colors.focus};
    outline-offset: 1px;
  }
`;

/** The id of a question's control, for its label and an error summary's link. */
export const questionFieldId = (idPrefix: string, question: RoutingQuestion): string => `${idPrefix}-q-${question.id}`;

/**
 * The team file's questions as native selects (a form without script, so the browser's own keyboard and screen
 * reader handling), each labelled, required, its error beside it and the option chosen kept when the form comes back.
 * Each posts as its own field `answers.<id>`, which the API gathers into the request's answers.
 */
export function QuestionFields({
  idPrefix,
  questions,
  answers,
  errors,
}: {
  idPrefix: string;
  questions: readonly RoutingQuestion[];
  answers: RoutingAnswers;
  errors: Partial<Record<string, string>>;
}) {
  return (
    <>
      {questions.map((question) => {
        const id = questionFieldId(idPrefix, question);
        const errorId = `${id}-error`;
        const error = errors[answerField(question.id)];
        const chosen = answers[question.id];
        return (
          <Field key={question.id}>
            <label htmlFor={id}>{question.label}</label>
            <Select
              id={id}
              name={answerField(question.id)}
              required
              defaultValue={chosen !== undefined && question.options.includes(chosen) ? chosen : ''}
              $invalid={Boolean(error)}
              aria-invalid={error ? true : undefined}
              aria-describedby={errorId}
            >
              <option value="">Choose…</option>
              {question.options.map((option) => (
                <option key={option} value={option}>
                  {option}
                </option>
              ))}
            </Select>
            <FieldError id={errorId} message={error} />
          </Field>
        );
      })}
    </>
  );
}
