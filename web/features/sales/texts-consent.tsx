import type { SmsView, TextView, TextWithheldReason } from '../../../domain/sales.js';
import { ColumnHeads, Facts, formatInstant, Muted, Table } from './parts.js';

const KIND_LABELS: Record<string, string> = {
  'sms-confirmation': 'Confirmation',
  'sms-update': 'Update',
  'sms-cancellation': 'Cancellation',
  'sms-reminder': 'Reminder',
};

function Instant({ iso, timeZone }: { iso: string; timeZone: string }) {
  return <time dateTime={iso}>{formatInstant(iso, timeZone)}</time>;
}

const WITHHELD_REASONS: Record<TextWithheldReason, string> = {
  'number-per-day': 'The number had its texts for the day',
  'booking-limit': 'The booking had its texts',
  'number-of-another-prospect': 'The number was texted about another prospect’s booking today',
};

/** What the receipt said (or the SMSC's refusal for good) and when; what sending did when neither came. */
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
 * number answered STOP; how many of its texts were delivered or failed, each text and where it stands, and those a
 * limit held back.
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
            <dt>Delivered</dt>
            <dd>{sms.delivered}</dd>
            <dt>Failed</dt>
            <dd>{sms.failed}</dd>
          </Facts>
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
          {sms.withheld.length > 0 ? (
            <Table title="Texts held back by a limit">
              <ColumnHeads names={['Kind', 'When', 'Why']} />
              <tbody>
                {sms.withheld.map((held) => (
                  <tr key={`${held.kind}-${held.at}`}>
                    <th scope="row">{KIND_LABELS[held.kind] ?? held.kind}</th>
                    <td>
                      <Instant iso={held.at} timeZone={timeZone} />
                    </td>
                    <td>{WITHHELD_REASONS[held.reason] ?? held.reason}</td>
                  </tr>
                ))}
              </tbody>
            </Table>
          ) : null}
        </>
      )}
    </section>
  );
}
