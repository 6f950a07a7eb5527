import { expect } from 'chai';
import type { ComponentProps } from 'react';
import { ThemeProvider } from 'styled-components';
import { theme } from './theme.js';
import { renderPage } from '../test/render.js';
import { TextField } from './form-parts.js';

const noop = () => undefined;

function render(props: Partial<ComponentProps<typeof TextField>> = {}) {
  return renderPage(
    <ThemeProvider theme={theme}>
      <TextField id="f-name" name="name" label="Name" value="Ana" onChange={noop} {...props} />
    </ThemeProvider>,
  );
}

/** The opening tag of the first `tag` element, classes left out. */
const tagOf = (html: string, tag: string) =>
  (new RegExp(`<${tag}\\b[^>]*>`).exec(html)?.[0] ?? '').replace(/ class="[^"]*"/, '');

describe('the form text field', () => {
  it('labels its input and points it at its (empty) error message', () => {
    const { html } = render({ autoComplete: 'name', maxLength: 200 });
    expect(tagOf(html, 'label')).to.equal('<label for="f-name">');
    expect(tagOf(html, 'input')).to.equal(
      '<input id="f-name" autoComplete="name" maxLength="200" aria-describedby="f-name-error" name="name" value="Ana"/>',
    );
    expect(html).to.include('<span id="f-name-error" hidden=""></span>');
  });

  it('marks the input invalid and shows the message while there is an error', () => {
    const { html, text } = render({ error: 'Please enter your name.' });
    expect(tagOf(html, 'input')).to.include('aria-invalid="true" aria-describedby="f-name-error"');
    expect(html).to.match(/<p id="f-name-error"[^>]*><svg/);
    expect(text).to.include('Please enter your name.');
  });

  it('marks an optional field in its label, and renders a textarea when given rows', () => {
    const { html, text } = render({
      id: 'f-message',
      name: 'message',
      label: 'Message',
      optional: true,
      rows: 3,
      value: '',
    });
    expect(text.trim()).to.equal('Message (Optional)');
    expect(tagOf(html, 'textarea')).to.equal(
      '<textarea id="f-message" name="message" aria-describedby="f-message-error" rows="3">',
    );
    expect(html).to.not.include('<input');
  });

  it('names other descriptions around the error, and keeps a box for an adornment even when it shows nothing', () => {
    const plain = render();
    const adorned = render({
      type: 'email',
      adornment: null,
      describedBy: { before: ['f-name-status'], after: ['f-name-hint'] },
      beforeError: <span id="f-name-status" />,
      afterError: <p id="f-name-hint">Hint</p>,
    });
    expect(tagOf(adorned.html, 'input')).to.include('aria-describedby="f-name-status f-name-error f-name-hint"');
    expect(adorned.html).to.match(
      /<span id="f-name-status"><\/span><span id="f-name-error" hidden=""><\/span><p id="f-name-hint">/,
    );
    expect(adorned.html).to.match(/<div class="[^"]*"><input /);
    expect(plain.html).to.not.match(/<div class="[^"]*"><input /);
  });
});
