/**
 * The routing's answer to a prospect, asked by the booking (POST /api/demo-request, the page without script) and by
 * the dialog before its calendar (POST /api/routing), so both refuse alike: answers missing or off the file's options
 * are 400 beside each question ("answers.<id>"), a disqualifying route or no route at all is 422 with the words the
 * prospect reads instead of a calendar. Never every host when nothing matched.
 */
import { answerField, answerProblems, type RoutingAnswers } from '../../domain/routing.js';
import { ApiError, type ErrorBody } from '../errors.js';
import type { ProspectRoute, ProspectRouting } from './prospect-route.js';

export { answerField };

export interface NotRoutedBody extends ErrorBody {
  /** The route that matched turns the prospect away, with its message. */
  disqualified?: true;
  /** No route matched and the file has no catch-all. */
  unrouted?: true;
  message: string;
}

/** 422: the prospect is not offered a calendar; `message` is what they read instead. */
export class NotRoutedError extends ApiError {
  constructor(
    readonly kind: 'disqualified' | 'unrouted',
    message: string,
  ) {
    super(422, kind === 'disqualified' ? 'Not offered a demo online' : 'No host for this request', message);
  }

  override body(): NotRoutedBody {
    return { ...super.body(), [this.kind]: true, message: this.details };
  }
}

/** A route that offers hosts: the route's hosts and the account's owner. */
export type HostsRoute = ProspectRoute & { decision: { kind: 'hosts' } };

/**
 * The route of `email` with `answers` (none asked: `{}`), or the 400 or 422 to answer; `writeTo` is the address an
 * unrouted prospect is asked to write to.
 */
export async function routeProspect(
  routing: ProspectRouting,
  email: string,
  answers: RoutingAnswers | undefined,
  writeTo: string,
  summary = 'Invalid demo request',
): Promise<HostsRoute> {
  const problems = answerProblems(routing.questions, answers ?? {});
  const fields = Object.fromEntries(Object.entries(problems).map(([id, problem]) => [answerField(id), problem]));
  if (Object.keys(fields).length > 0) throw new ApiError(400, summary, Object.values(fields).join(' '), fields);
  const route = await routing.router.routeOf(email, answers ?? {});
  const { decision } = route;
  if (decision.kind === 'disqualified') throw new NotRoutedError('disqualified', decision.message);
  if (decision.kind === 'unrouted')
    throw new NotRoutedError(
      'unrouted',
      `No one on our team takes this kind of request online yet; please write to ${writeTo}.`,
    );
  return { ...route, decision };
}
