/**
 * The dialog's routing step, when the team asks questions or routes (GET /api/routing): the answers, then the route
 * the e-mail address and the answers select (POST /api/routing, the address in the body), whose key the calendar asks
 * its slots with; or the words of a 422 shown instead of a calendar. A team that routes without questions (routes or
 * account owners alone) is asked with the e-mail alone. Without either there is no step: the dialog is as it always
 * was.
 */
import { useEffect, useRef, useState } from 'react';
import { answerProblems, type RoutingAnswers, type RoutingQuestion } from '../../../domain/routing.js';
import { notRoutedMessage, serverAnswerErrors } from '../../store/api-errors.js';
import { useRouteProspectMutation, useRoutingQuestionsQuery } from '../../store/api.js';
import { FUNNEL_SOURCE_SENT_MAX_LENGTH } from '../../../domain/funnel.js';
import { rememberedUtmSource, visitStorage } from './attribution.js';

/** Shown above the questions when the slot list refused the route key (altered, or too old). */
export const ASK_AGAIN = 'Answer the questions again';

const NO_QUESTIONS: readonly RoutingQuestion[] = [];

/**
 * What asking for the route came to: a key, a 422 shown instead of the calendar, an answer overtaken by a change of
 * address or answer, or another failure for the caller to show (a 400's answer problems are shown already).
 */
export type RouteOutcome =
  { kind: 'routed' } | { kind: 'refused' } | { kind: 'overtaken' } | { kind: 'invalid'; error: unknown };

export function useRoutingStep() {
  const { data, isError } = useRoutingQuestionsQuery();
  const questions = data?.questions ?? NO_QUESTIONS;
  /** The questions are not known yet: the calendar waits, lest it offer every host's slots. */
  const pending = data === undefined && !isError;
  const asks = questions.length > 0;
  /** The calendar waits for a route: the team asks questions, or who hosts depends on the e-mail. */
  const routesFirst = asks || data?.routed === true;
  /** The route follows the e-mail alone: asked for once the address is accepted. */
  const byEmailAlone = routesFirst && !asks;
  const [answers, setAnswers] = useState<RoutingAnswers>({});
  const [answerErrors, setAnswerErrors] = useState<Record<string, string>>({});
  const [route, setRoute] = useState<string | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const [askAgain, setAskAgain] = useState(false);
  const [routeProspect, { isLoading: isRouting }] = useRouteProspectMutation();
  const refusalRef = useRef<HTMLDivElement>(null);
  const routedRef = useRef<HTMLDivElement>(null);
  // What the last answer was for: a later change of address or answer makes an answer arriving late count for nothing.
  const asked = useRef(0);
  // An answer asked for by the visitor takes the focus; one asked on its own (the e-mail accepted) leaves it be.
  const focusAnswer = useRef(true);

  // The words shown instead of a calendar take the focus, so a screen reader reads them and the keyboard is there.
  useEffect(() => {
    if (refusal && focusAnswer.current) refusalRef.current?.focus();
  }, [refusal]);

  /** Forgets the route: the address or an answer changed, so it may be another. */
  const forget = () => {
    asked.current += 1;
    setRoute(null);
    setRefusal(null);
  };

  const onAnswer = (questionId: string, option: string) => {
    setAnswers((current) => ({ ...current, [questionId]: option }));
    setAnswerErrors((current) => {
      if (!current[questionId]) return current;
      const { [questionId]: _answered, ...rest } = current;
      return rest;
    });
    forget();
  };

  /** The questions left unanswered, each with its words; shown under each. */
  const checkAnswers = (): Record<string, string> => {
    const problems = answerProblems(questions, answers);
    setAnswerErrors(problems);
    return problems;
  };

  /**
   * Asks for the route of `email` with the answers; a 400's answer problems are shown, the rest is the caller's.
   * `moveFocus` false: the answer does not take the focus (the visitor is typing elsewhere).
   */
  const ask = async (email: string, moveFocus = true): Promise<RouteOutcome> => {
    forget();
    focusAnswer.current = moveFocus;
    const attempt = asked.current;
    setAskAgain(false);
    try {
      // The visit's source, under which the funnel counts a prospect the routes turn away.
      const source = rememberedUtmSource(visitStorage())?.trim().slice(0, FUNNEL_SOURCE_SENT_MAX_LENGTH);
      const { route: key } = await routeProspect({ email, answers, ...(source ? { source } : {}) }).unwrap();
      if (attempt !== asked.current) return { kind: 'overtaken' };
      setRoute(key);
      if (moveFocus) routedRef.current?.focus();
      return { kind: 'routed' };
    } catch (error) {
      if (attempt !== asked.current) return { kind: 'overtaken' };
      return refused(error) ? { kind: 'refused' } : { kind: 'invalid', error };
    }
  };

  /** A booking's or a route's refusal: a 422 shows its words instead of a calendar, a 400 its answers' problems. */
  const refused = (error: unknown): boolean => {
    focusAnswer.current = true;
    const message = notRoutedMessage(error);
    if (message !== undefined) {
      setRoute(null);
      setRefusal(message);
      return true;
    }
    const problems = serverAnswerErrors(error);
    if (Object.keys(problems).length > 0) {
      setRoute(null);
      setAnswerErrors(problems);
    }
    return false;
  };

  /** The slot list refused the key: the questions are to be answered again. */
  const onRouteRefused = () => {
    forget();
    setAskAgain(true);
  };

  const reset = () => {
    forget();
    setAnswers({});
    setAnswerErrors({});
    setAskAgain(false);
  };

  return {
    questions,
    /** The site texts a confirmation and a reminder: the form offers the consent under the phone. */
    texts: data?.texts === true,
    pending,
    asks,
    routesFirst,
    byEmailAlone,
    answers,
    answerErrors,
    route,
    refusal,
    askAgain,
    isRouting,
    refusalRef,
    routedRef,
    onAnswer,
    checkAnswers,
    ask,
    refused,
    forget,
    onRouteRefused,
    reset,
  };
}

export type RoutingStep = ReturnType<typeof useRoutingStep>;
