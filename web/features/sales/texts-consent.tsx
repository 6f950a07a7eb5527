import type { BookingDetail } from '../../../domain/sales.js';
import { ColumnHeads, Facts, formatInstant, Muted, Table } from './parts.js';

/** One text of the booking and where it stands, as the admin API is being taught to tell (issue 40). */
export interface TextView {
  kind: string;
  sentAt: string | null;
  /** What the SMSC's delivery receipt said (delivered, undeliverable, expired, …); null before one came. */
  state: string | null;
  stateAt: string | null;
}

/**
 * The texts' part of a booking's view: the consent and the STOP the admin API gives, and its texts and their counts,
 * which it is being given: optional here until it does, so that a view without them reads as before.
 */
export type SmsView = NonNullable<BookingDetail['sms']> & { texts?: TextView[]; delivered?: number; failed?: number };

const KIND_LABELS: Record<string, string> = {
  'sms-confirmation': 'Confirmation',
  'sms-update': 'Update',
  'sms-cancellation': 'Cancellation',
  'sms-reminder': 'Reminder',
};

function Instant({ iso, timeZone }: { iso: string; timeZone: string }) {
  return <time dateTime={iso}>{formatInstant(iso, timeZone)}</time>;
}

/** What the receipt said and when; what sending did when none came. */
function TextState({ text, timeZone }: { text: TextView; timeZone: string }) {
  if (text.state)
    return (
      <>
        {text.state}
        {text.stateAt ? (
          <>
            {' '}
            (<Instant iso={text.stateAt} timeZone={timeZone} />)
          </>
        ) : null}
      </>
    );
  return <>{text.sentAt ? 'No receipt yet' : 'Not sent'}</>;
}

/**
 * A booking's texts: the number the prospect agreed to be texted at, the words they ticked and when, and whether the
 * number answered STOP; with its texts and how many were delivered or failed when the answer carries them.
 */
export function TextsConsent({
  sms,
  anonymised,
  timeZone,
}: {
  sms: SmsView | null;
  /** Its personal data gone with retention: the number and the consent with it. */
  anonymised: boolean;
  timeZone: string;
}) {
  return (
    <section aria-labelledby="texts-title">
      <h3 id="texts-title">Texts</h3>
      {sms === null ? (
        <Muted>
          {anonymised
            ? 'Removed with the booking’s personal data.'
            : 'The prospect did not agree to texts: none is sent about this booking.'}
        </Muted>
      ) : (
        <>
          <Facts data-testid="texts-consent">
            <dt>Number</dt>
            <dd>{sms.phone}</dd>
            <dt>Words agreed to</dt>
            <dd>“{sms.consentText}”</dd>
            <dt>Agreed</dt>
            <dd>
              <Instant iso={sms.consentAt} timeZone={timeZone} />
            </dd>
            <dt>Opted out (STOP)</dt>
            <dd>
              {sms.optedOutAt ? (
                <>
                  <Instant iso={sms.optedOutAt} timeZone={timeZone} />: no text goes to this number any more
                </>
              ) : (
                'No'
              )}
            </dd>
            {sms.delivered !== undefined ? (
              <>
                <dt>Delivered</dt>
                <dd>{sms.delivered}</dd>
              </>
            ) : null}
            {sms.failed !== undefined ? (
              <>
                <dt>Failed</dt>
                <dd>{sms.failed}</dd>
              </>
            ) : null}
          </Facts>
          {sms.texts ? (
            <Table title="Texts sent">
              <ColumnHeads names={['Kind', 'Sent', 'Receipt']} />
              <tbody>
                {sms.texts.length === 0 ? (
                  <tr>
                    <td colSpan={3}>None yet.</td>
                  </tr>
                ) : (
                  sms.texts.map((text, i) => (
                    <tr key={`${text.kind}-${text.sentAt ?? i}`}>
                      <th scope="row">{KIND_LABELS[text.kind] ?? text.kind}</th>
                      <td>{text.sentAt ? <Instant iso={text.sentAt} timeZone={timeZone} /> : '—'}</td>
                      <td>
                        <TextState text={text} timeZone={timeZone} />
                      </td>
                    </tr>
                  ))
                )}
              </tbody>
            </Table>
          ) : null}
        </>
      )}
    </section>
  );
}
