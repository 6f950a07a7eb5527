/**
 * The team's routing questions in the dialog, asked before its calendar: each a required single choice, a group of
 * native radio buttons in a fieldset whose legend is the question, so the arrow keys move within it and a screen
 * reader names the question with each option. A problem shows under its question and describes its group.
 */
import type { ReactNode } from 'react';
import { styled } from 'styled-components';
import type { RoutingAnswers, RoutingQuestion } from '../../../domain/routing.js';
import { FieldError } from '../../components/form-parts.js';

const Group = styled.fieldset`
  border: 0;
  margin: 0;
  padding: 0;
  min-width: 0;
  display: grid;
  gap: ${({ theme }) => theme.space[2]};
`;

const Legend = styled.legend`
  padding: 0;
  margin-bottom: ${({ theme }) => theme.space[2]};
  font-weight: 600;
  font-size: ${({ theme }) => theme.text.sm};
`;

const Options = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: ${({ theme }) => theme.space[2]};
`;

/** An option as a tile as tall as a touch target; the radio inside it stays the control (and takes the focus). */
const Option = styled.label<{ $invalid: boolean }>`
  display: inline-flex;
  align-items: center;
  gap: ${({ theme }) => theme.space[2]};
  min-height: 44px;
  padding: ${({ theme }) => `${theme.space[1]} ${theme.space[3]}`};
  border: 1px solid ${({ theme, $invalid }) => ($invalid ? theme.colors.danger : theme.colors.borderStrong)};
  border-radius: ${({ theme }) => theme.radius.sm};
  cursor: pointer;
  input {
    margin: 0;
    width: 1.125rem;
    height: 1.125rem;
    accent-color: ${({ theme }) => theme.colors.primary};
    cursor: pointer;
  }
  &:has(input:checked) {
    border-color: ${({ theme }) => theme.colors.primary};
    background: ${({ theme }) => theme.colors.primarySoft};
  }
  &:has(input:focus-visible) {
    outline: 3px solid ${({ theme }) => theme.colors.focus};
    outline-offset: 2px;
  }
`;

/** The id of a question's group, for focusing its first option. */
export const questionGroupId = (prefix: string, questionId: string): string => `${prefix}-q-${questionId}`;

interface RoutingQuestionsProps {
  /** Prefixes the groups' and options' ids (the form's own id). */
  idPrefix: string;
  questions: readonly RoutingQuestion[];
  answers: RoutingAnswers;
  /** A message per question id, shown under its group. */
  errors: Readonly<Record<string, string>>;
  onAnswer: (questionId: string, option: string) => void;
}

export function RoutingQuestions({ idPrefix, questions, answers, errors, onAnswer }: RoutingQuestionsProps): ReactNode {
  return questions.map((question) => {
    const groupId = questionGroupId(idPrefix, question.id);
    const errorId = `${groupId}-error`;
    const error = errors[question.id];
    return (
      <Group key={question.id} id={groupId} aria-describedby={errorId} aria-invalid={error ? true : undefined}>
        <Legend>{question.label}</Legend>
        <Options>
          {question.options.map((option, index) => (
            <Option key={option} $invalid={Boolean(error)}>
              <input
                type="radio"
                id={`${groupId}-${index}`}
                name={`answers.${question.id}`}
                required
                value={option}
                checked={answers[question.id] === option}
                onChange={() => onAnswer(question.id, option)}
              />
              {option}
            </Option>
          ))}
        </Options>
        <FieldError id={errorId} message={error} />
      </Group>
    );
  });
}
