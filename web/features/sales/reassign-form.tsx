/**
 * Handing a booking to another host of its route: choose the host, then confirm (two steps, so a slip of the keyboard
 * changes nothing). The outcome is announced (role="status"), a refusal read out (role="alert"), the focus kept on
 * the form's controls.
 */
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Button } from '../../components/button.js';
import { serverMessage } from '../../store/api-errors.js';
import type { BookingDetail } from '../../../domain/sales.js';
import { Alert, Field, Muted, Toolbar } from './parts.js';

interface ReassignFormProps {
  booking: BookingDetail;
  onReassign: (host: string) => void;
  pending: boolean;
  error: unknown;
  /** The host's name once a handover went through. */
  done: string | undefined;
}

export function ReassignForm({ booking, onReassign, pending, error, done }: ReassignFormProps) {
  const [host, setHost] = useState('');
  const [confirming, setConfirming] = useState(false);
  const confirmButton = useRef<HTMLButtonElement>(null);
  const select = useRef<HTMLSelectElement>(null);
  const chosen = booking.reassignTo.find((candidate) => candidate.email === host);
  useEffect(() => {
    if (confirming) confirmButton.current?.focus();
  }, [confirming]);
  useEffect(() => {
    setConfirming(false);
    setHost('');
  }, [booking.host?.email]);

  if (booking.status === 'cancelled') return null;
  const started = Date.parse(booking.timeSlot) <= Date.now();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (chosen) setConfirming(true);
  };
  return (
    <section aria-labelledby="reassign-title">
      <h3 id="reassign-title">Host</h3>
      {started ? (
        <Muted>The demo has started; its host stays.</Muted>
      ) : booking.reassignTo.length === 0 ? (
        <Muted>No other host of its route can take this demo.</Muted>
      ) : (
        <form onSubmit={submit} aria-describedby="reassign-hint">
          <Muted id="reassign-hint">
            The new host's calendar is checked now; the prospect, both hosts and the sales desk are told.
          </Muted>
          <Field>
            <label htmlFor="reassign-host">Hand to</label>
            <select
              id="reassign-host"
              ref={select}
              value={host}
              disabled={pending}
              onChange={(event) => {
                setHost(event.target.value);
                setConfirming(false);
              }}
            >
              <option value="">Choose a host</option>
              {booking.reassignTo.map((candidate) => (
                <option key={candidate.email} value={candidate.email}>
                  {candidate.name} ({candidate.email})
                </option>
              ))}
            </select>
          </Field>
          {confirming && chosen ? (
            <Toolbar role="group" aria-label="Confirm the handover">
              <p>
                Hand this demo to {chosen.name}
                {booking.host ? ` instead of ${booking.host.name}` : ''}?
              </p>
              <Button
                type="button"
                ref={confirmButton}
                disabled={pending}
                onClick={() => {
                  setConfirming(false);
                  onReassign(chosen.email);
                }}
              >
                Confirm: hand to {chosen.name}
              </Button>
              <Button
                type="button"
                $variant="secondary"
                onClick={() => {
                  setConfirming(false);
                  select.current?.focus();
                }}
              >
                Keep {booking.host?.name ?? 'as it is'}
              </Button>
            </Toolbar>
          ) : (
            <Toolbar>
              <Button type="submit" disabled={pending || !chosen}>
                Hand over…
              </Button>
            </Toolbar>
          )}
        </form>
      )}
      <div role="status">{pending ? 'Handing over…' : done ? `Handed to ${done}.` : ''}</div>
      {error ? (
        <Alert role="alert">{serverMessage(error) ?? 'The demo was not handed over. Please try again.'}</Alert>
      ) : null}
    </section>
  );
}
