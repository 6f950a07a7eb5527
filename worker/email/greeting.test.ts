/**
 * The greeting names the prospect as text. The API refuses names with links (domain/links-in-text.ts); a name stored
 * before that rule, markup and address and all, is still only text in every e-mail to the prospect: escaped, and no
 * link beyond the ones the layout itself puts there.
 */
import { expect } from 'chai';
import { renderCancellation, renderReminder, renderUpdate } from './booking-changes.js';
import { renderConfirmation } from './confirmation.js';
import { SAMPLE_BOOKING, SAMPLE_RENDERING } from './sample-booking.js';

const HOSTILE_NAME = 'Your mailbox is full, log in at <a href="http://evil.example/owa">http://evil.example/owa</a>';
const RENDERERS = { confirmation: renderConfirmation, update: renderUpdate, cancellation: renderCancellation, reminder: renderReminder };
const links = (html: string) => html.match(/<a\b/g)?.length ?? 0;

describe('the greeting of every e-mail to the prospect', () => {
  for (const [kind, render] of Object.entries(RENDERERS)) {
    it(`is text in the ${kind}: escaped, and no link of its own`, () => {
      const plain = render(SAMPLE_BOOKING, SAMPLE_RENDERING);
      const hostile = render({ ...SAMPLE_BOOKING, name: HOSTILE_NAME }, SAMPLE_RENDERING);
      expect(hostile.html).to.contain('<p>Hi Your mailbox is full, log in at &#60;a href=&#34;http://evil.example/owa&#34;&#62;');
      expect(hostile.html).not.to.contain('href="http://evil.example');
      expect(links(hostile.html)).to.equal(links(plain.html));
    });
  }
});
