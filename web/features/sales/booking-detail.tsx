import { useEffect, useRef } from 'react';
import { Button } from '../../components/button.js';
import { serverMessage } from '../../store/api-errors.js';
import type { Attendance, BookingDetail, HistoryEntry } from '../../../domain/sales.js';
import { useBookingDetailQuery, useMarkAttendanceMutation, useReassignBookingMutation } from '../../store/sales-api.js';
import {
  Alert,
  ColumnHeads,
  Facts,
  formatInstant,
  Muted,
  Panel,
  statusOf,
  SubHeading,
  Table,
  Toolbar,
  useSessionEnd,
} from './parts.js';
import { RoutingExplained } from './routing-explained.js';
import { ReassignForm } from './reassign-form.js';
import { calendarAnswerText } from './calendar-answer.js';
import { TextsConsent } from './texts-consent.js';

function historyText(entry: HistoryEntry, timeZone: string): string {
  switch (entry.what) {
    case 'booked':
      return `Booked for ${formatInstant(entry.timeSlot, timeZone)}`;
    case 'moved':
      return `Moved from ${formatInstant(entry.from, timeZone)} to ${formatInstant(entry.to, timeZone)}`;
    case 'reassigned':
      return `Handed from ${entry.fromHost || 'no host'} to ${entry.toHost}`;
    case 'needs-new-time':
      return `${entry.fromHost || 'Its host'} withdrew and no other host was free: the prospect was asked for a new time`;
    case 'cancelled':
      return 'Cancelled';
    case 'attended':
      return 'Marked attended';
    case 'no_show':
      return 'Marked no-show';
  }
}

function emailState(email: BookingDetail['emails'][number], timeZone: string): string {
  if (email.sentAt) return `Sent ${formatInstant(email.sentAt, timeZone)}`;
  if (email.failedAt) return `Refused ${formatInstant(email.failedAt, timeZone)}`;
  if (email.droppedAt) return 'Dropped (a later change overtook it)';
  return email.attempts > 0 ? `Retrying (${email.attempts} tries)` : 'Waiting';
}

function deliveryState(delivery: BookingDetail['webhookDeliveries'][number], timeZone: string): string {
  if (delivery.deliveredAt) return `Delivered ${formatInstant(delivery.deliveredAt, timeZone)}`;
  if (delivery.exhaustedAt) return 'Given up; waiting for a replay';
  return delivery.attempts > 0
    ? `Retrying (${delivery.attempts} tries, last status ${delivery.lastStatus ?? 'none'})`
    : 'Waiting';
}

interface BookingDetailViewProps {
  id: string;
  timeZone: string;
  csrfToken: string;
  onBack: () => void;
  onSessionEnded: () => void;
}

/**
 * One booking: its facts, its texts' consent, its history, what it sent, and after its time the attended / no-show
 * marks.
 */
export function BookingDetailView({ id, timeZone, csrfToken, onBack, onSessionEnded }: BookingDetailViewProps) {
  const { data: booking, error, isLoading } = useBookingDetailQuery(id);
  const [mark, marking] = useMarkAttendanceMutation();
  const [reassign, reassigning] = useReassignBookingMutation();
  useSessionEnd(error ?? marking.error ?? reassigning.error, onSessionEnded);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), [booking?.id]);
  // The latest answer about this booking: a change's own, until the list's refetch brings it too.
  const changes = [marking, reassigning].filter((change) => change.data?.id === id);
  changes.sort((a, b) => (b.fulfilledTimeStamp ?? 0) - (a.fulfilledTimeStamp ?? 0));
  const shown = changes[0]?.data ?? booking;
  const markAs = (attendance: Attendance) => void mark({ id, attendance, csrfToken });
  const started = shown ? Date.parse(shown.timeSlot) <= Date.now() : false;
  return (
    <Panel aria-labelledby="booking-title">
      <Toolbar>
        <Button type="button" $variant="secondary" onClick={onBack}>
          Back to the bookings
        </Button>
      </Toolbar>
      <SubHeading id="booking-title" tabIndex={-1} ref={heading}>
        {shown ? `${shown.name || '(removed)'}, ${shown.company}` : 'Booking'}
      </SubHeading>
      {isLoading ? <p role="status">Loading the booking…</p> : null}
      {error ? <Alert role="alert">{serverMessage(error) ?? 'The booking could not be read.'}</Alert> : null}
      {shown ? (
        <>
          <Facts>
            <dt>Slot</dt>
            <dd>{formatInstant(shown.timeSlot, timeZone)}</dd>
            <dt>Status</dt>
            <dd data-testid="booking-status">
              {statusOf(shown)}
              {shown.status === 'booked' && shown.needsNewTime
                ? ` (its host ${shown.needsNewTime.reason === 'host-declined' ? 'declined' : 'deleted'} the event in their calendar on ${formatInstant(shown.needsNewTime.since, timeZone)}; the prospect was asked to choose a new time)`
                : ''}
            </dd>
            <dt>Calendar answer</dt>
            <dd data-testid="booking-calendar-answer">{calendarAnswerText(shown.prospectReply, timeZone)}</dd>
            <dt>E-mail</dt>
            <dd>{shown.email}</dd>
            <dt>Phone</dt>
            <dd>{shown.phone ?? '—'}</dd>
            <dt>Message</dt>
            <dd>{shown.message ?? '—'}</dd>
            <dt>Host</dt>
            <dd>{shown.host ? `${shown.host.name} (${shown.host.email})` : '—'}</dd>
            <dt>Source</dt>
            <dd>{shown.attribution?.utm_source ?? '—'}</dd>
          </Facts>
          <TextsConsent sms={shown.sms} anonymised={shown.anonymisedAt !== null} timeZone={timeZone} />
          <RoutingExplained booking={shown} timeZone={timeZone} />
          <ReassignForm
            booking={shown}
            pending={reassigning.isLoading}
            error={reassigning.error}
            done={reassigning.isSuccess && reassigning.data.id === id ? reassigning.data.host?.name : undefined}
            onReassign={(host) => void reassign({ id, host, csrfToken })}
          />
          <section aria-labelledby="attendance-title">
            <h3 id="attendance-title">Attendance</h3>
            {shown.status === 'cancelled' ? (
              <Muted>A cancelled demo can be marked neither attended nor no-show.</Muted>
            ) : started ? (
              <Toolbar>
                <Button
                  type="button"
                  onClick={() => markAs('attended')}
                  disabled={marking.isLoading}
                  aria-pressed={shown.attendance === 'attended'}
                >
                  Mark attended
                </Button>
                <Button
                  type="button"
                  $variant="secondary"
                  onClick={() => markAs('no_show')}
                  disabled={marking.isLoading}
                  aria-pressed={shown.attendance === 'no_show'}
                >
                  Mark no-show
                </Button>
              </Toolbar>
            ) : (
              <Muted>The demo can be marked once its time has come.</Muted>
            )}
            <div role="status">
              {marking.isSuccess && marking.data.id === id ? `Marked ${statusOf(marking.data).toLowerCase()}.` : ''}
            </div>
            {marking.error ? (
              <Alert role="alert">{serverMessage(marking.error) ?? 'The mark was not saved. Please try again.'}</Alert>
            ) : null}
          </section>
          <section aria-labelledby="history-title">
            <h3 id="history-title">History</h3>
            <ol>
              {shown.history.map((entry) => (
                <li key={`${entry.at}-${entry.what}`}>
                  <time dateTime={entry.at}>{formatInstant(entry.at, timeZone)}</time>: {historyText(entry, timeZone)}
                </li>
              ))}
            </ol>
          </section>
          <Table title="E-mails">
            <ColumnHeads names={['Kind', 'To', 'Stored', 'State']} />
            <tbody>
              {shown.emails.map((email) => (
                <tr key={email.id}>
                  <th scope="row">{email.kind}</th>
                  <td>{email.recipient ?? 'The prospect'}</td>
                  <td>{formatInstant(email.createdAt, timeZone)}</td>
                  <td>{emailState(email, timeZone)}</td>
                </tr>
              ))}
            </tbody>
          </Table>
          <Table title="Webhook deliveries">
            <ColumnHeads names={['Event', 'Raised', 'State']} />
            <tbody>
              {shown.webhookDeliveries.length === 0 ? (
                <tr>
                  <td colSpan={3}>None: no webhook endpoint took this booking's events.</td>
                </tr>
              ) : (
                shown.webhookDeliveries.map((delivery) => (
                  <tr key={delivery.id}>
                    <th scope="row">{delivery.eventType}</th>
                    <td>{formatInstant(delivery.createdAt, timeZone)}</td>
                    <td>{deliveryState(delivery, timeZone)}</td>
                  </tr>
                ))
              )}
            </tbody>
          </Table>
        </>
      ) : null}
    </Panel>
  );
}
