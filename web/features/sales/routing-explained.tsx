/**
 * A booking's routing as sales reads it: the prospect's answers, and "Why <host>?" (a native disclosure): the route
 * that matched, the account's owner and where it was found, each candidate and what became of them, each reassignment.
 */
import { styled } from 'styled-components';
import type { CandidateOutcome, RoutingRecord } from '../../../domain/routing.js';
import type { BookingDetail } from '../../../domain/sales.js';
import { formatInstant, Muted } from './parts.js';

const OUTCOMES: Record<CandidateOutcome, string> = {
  chosen: 'chosen',
  busy: 'busy at that time',
  'over-daily-limit': 'had reached their daily limit',
  'outside-hours': 'outside their working hours',
  'calendar-unreadable': 'their calendar could not be read',
  'owner-first': "free, but the account's owner was free too and comes first",
  'host-kept': "free, but the booking's own host was free at the new time",
  'fewer-demos-elsewhere': 'free, but another host had fewer demos',
};

const OWNER_SOURCES = { lookup: "the company's owner lookup", accounts: 'the accounts file' } as const;

const Disclosure = styled.details`
  margin-top: ${({ theme }) => theme.space[3]};
  summary {
    cursor: pointer;
    font-weight: 700;
  }
  summary:focus-visible {
    outline: 3px solid ${({ theme }) => theme.colors.focus};
  }
`;

/** "Dana Whitfield" → "Dana"; an address when there is no name. */
function firstNameOf(name: string): string {
  return name.trim().split(/\s+/)[0] || name;
}

/** The route and the owner in words. */
export function routeWords(routing: RoutingRecord): string {
  const route =
    routing.rule === null
      ? 'No routes in the team file: every host could take it.'
      : `Route ${routing.rule + 1} matched: ${routing.label}.`;
  const owner = routing.owner
    ? `The account's owner is ${routing.owner.email} (found in ${OWNER_SOURCES[routing.owner.source]}).`
    : routing.ownerLookupFailed
      ? 'The owner lookup failed, so the accounts file and the routes decided.'
      : 'No owner was found for the account.';
  return `${route} ${owner}`;
}

export function RoutingExplained({ booking, timeZone }: { booking: BookingDetail; timeZone: string }) {
  const { routing, host } = booking;
  const answered = booking.labelledAnswers;
  return (
    <section aria-labelledby="routing-title">
      <h3 id="routing-title">Answers and routing</h3>
      {answered.length > 0 ? (
        <ul aria-label="The prospect's answers">
          {answered.map(({ id, label, answer }) => (
            <li key={id}>
              {label}: {answer}
            </li>
          ))}
        </ul>
      ) : (
        <Muted>No questions were asked.</Muted>
      )}
      {routing ? (
        <Disclosure>
          <summary>Why {host ? firstNameOf(host.name) : 'no host'}?</summary>
          <p>{routeWords(routing)}</p>
          <ul aria-label="Candidates">
            {routing.candidates.map((candidate) => (
              <li key={candidate.email}>
                {candidate.name} ({candidate.email}): {OUTCOMES[candidate.outcome]}
              </li>
            ))}
          </ul>
          {(routing.reassignments ?? []).length > 0 ? (
            <ul aria-label="Reassignments">
              {(routing.reassignments ?? []).map((handed) => (
                <li key={handed.at}>
                  {formatInstant(handed.at, timeZone)}: handed from {handed.from ?? 'nobody'} to {handed.to} (
                  {handed.reason
                    ? `the host ${handed.reason === 'host-declined' ? 'declined' : 'deleted'} the event`
                    : handed.by}
                  )
                </li>
              ))}
            </ul>
          ) : null}
        </Disclosure>
      ) : (
        <Muted>No routing record: the booking was made without a team.</Muted>
      )}
    </section>
  );
}
