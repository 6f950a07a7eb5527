/**
 * The greeting names the prospect as text. The API refuses names with links (domain/links-in-text.ts); a name stored
 * before that rule, markup and address and all, is still only text in every e-mail to the prospect: escaped, and no
 * link beyond the ones the layout itself puts there.
 */
import { expect } from 'chai';
import { renderCancellation, renderReminder, renderUpdate } from './booking-changes.js';
import { renderConfirmation } from './confirmation.js';
import { firstName } from './layout.js';
import { SAMPLE_BOOKING, SAMPLE_RENDERING } from './sample-booking.js';

// The greeting takes the first word: the markup sits in it.
const HOSTILE_NAME = '<a/href="http://evil.example/owa">Mailbox full, log in at http://evil.example/owa</a>';
const RENDERERS = {
  confirmation: renderConfirmation,
  update: renderUpdate,
  cancellation: renderCancellation,
  reminder: renderReminder,
};
/** The elements of a document, in order: what a name could add to it shows here. */
const elements = (html: string) => html.match(/<[a-z][a-z0-9]*/gi) ?? [];

describe('the greeting of every e-mail to the prospect', () => {
  it('greets by the first name as it was typed, or by the whole name after a title or an initial', () => {
    expect(firstName('Ana Berg')).to.equal('Ana');
    expect(firstName('  ana   maría López ')).to.equal('ana');
    expect(firstName('Grace')).to.equal('Grace');
    expect(firstName('Dr. Ana Berg')).to.equal('Dr. Ana Berg');
    expect(firstName('A. Berg')).to.equal('A. Berg');
    expect(firstName('李小龙')).to.equal('李小龙');
    const email = renderConfirmation({ ...SAMPLE_BOOKING, name: 'Ada Lovelace' }, SAMPLE_RENDERING);
    expect(email.text).to.match(/^Hi Ada,\n/);
    expect(email.html).to.contain('<p>Hi Ada,</p>');
    expect(email.toName).to.equal('Ada Lovelace');
  });

  for (const [kind, render] of Object.entries(RENDERERS)) {
    it(`is text in the ${kind}: escaped, and no link or other element of its own`, () => {
      const plain = render(SAMPLE_BOOKING, SAMPLE_RENDERING);
      const hostile = render({ ...SAMPLE_BOOKING, name: HOSTILE_NAME }, SAMPLE_RENDERING);
      expect(hostile.html).to.contain('<p>Hi &lt;a/href=&quot;http://evil.example/owa&quot;&gt;Mailbox,</p>');
      expect(hostile.html).not.to.contain('href="http://evil.example');
      expect(elements(hostile.html)).to.deep.equal(elements(plain.html));
      expect(hostile.text).to.match(/^Hi <a\/href="http:\/\/evil\.example\/owa">Mailbox,\n/);
    });
  }
});
