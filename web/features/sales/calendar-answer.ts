/** The prospect's answer to the invitation from their calendar, as the booking's page says it. */
import type { ProspectReply } from '../../../domain/sales.js';
import { formatInstant } from './parts.js';

const ANSWERS: Record<ProspectReply['answer'], string> = {
  ACCEPTED: 'Accepted',
  TENTATIVE: 'Tentative',
  DECLINED: 'Declined',
};

export function calendarAnswerText(reply: ProspectReply | null, timeZone: string): string {
  return reply ? `${ANSWERS[reply.answer]} in their calendar, ${formatInstant(reply.at, timeZone)}` : 'No answer yet';
}
