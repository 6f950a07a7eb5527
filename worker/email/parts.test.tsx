import { expect } from 'chai';
import { Button, Buttons, Details, Heading, htmlOf, Link, Message, Paragraph, Steps, textOf } from './parts.js';

describe('the parts of an e-mail: one tree, read as HTML and as plain text', () => {
  it('gives each part its text, paragraphs apart by a blank line, a line ending in a colon kept with what follows', () => {
    const body = (
      <>
        <Paragraph>Hello,</Paragraph>
        <Paragraph>What we know:</Paragraph>
        <Details rows={[['Name', 'Ada']]} />
        <Heading margin="0">Next</Heading>
        <Steps steps={['Accept', 'Join']} />
        <Message>{'line one\nline two'}</Message>
        <Buttons buttons={[{ href: 'https://a.example/', label: 'Open' }]} />
      </>
    );
    expect(textOf(body)).to.equal(
      [
        'Hello,',
        '',
        'What we know:',
        '  Name: Ada',
        '',
        'Next:',
        '  1. Accept',
        '  2. Join',
        '',
        '  line one',
        '  line two',
        '',
        '  Open: https://a.example/',
      ].join('\n'),
    );
  });

  it("writes a link's address after its words, unless the words are the address", () => {
    const text = textOf(
      <Paragraph>
        Read our <Link href="https://a.example/privacy">policy</Link>, write to{' '}
        <Link href="mailto:sales@a.example">sales@a.example</Link> or call <Link href="tel:+15550100">+1 555 0100</Link>
        .
      </Paragraph>,
    );
    expect(text).to.equal('Read our policy (https://a.example/privacy), write to sales@a.example or call +1 555 0100.');
  });

  it('refuses what has no plain-text form: loose words, an HTML element outside a part', () => {
    expect(() => textOf(<>loose words</>)).to.throw(/outside a paragraph/);
    expect(() => textOf(<p>a paragraph of HTML only</p>)).to.throw(/<p> is not an e-mail part/);
    expect(() =>
      textOf(
        <Paragraph>
          <em>emphasis</em>
        </Paragraph>,
      ),
    ).to.throw(/<em> is not an e-mail part/);
  });

  it('renders HTML with what a person typed as text, and no preload hint for images', () => {
    const html = htmlOf(
      <html>
        <body>
          <img src="https://a.example/logo.png" alt="" />
          <Paragraph>{'<script>alert(1)</script> & "Co"'}</Paragraph>
          <Button href={'https://a.example/?a=1&b="2"'} label="Go" />
        </body>
      </html>,
    );
    expect(html).to.match(/^<!doctype html>\n<html>/);
    expect(html).not.to.contain('<script').and.not.to.contain('<link');
    expect(html).to.contain('<p>&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;Co&quot;</p>');
    expect(html).to.contain('href="https://a.example/?a=1&amp;b=&quot;2&quot;"');
  });
});
