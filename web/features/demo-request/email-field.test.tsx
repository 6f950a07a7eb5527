import { expect } from 'chai';
import { ThemeProvider } from 'styled-components';
import { theme } from '../../components/theme.js';
import { renderPage } from '../../test/render.js';
import type { EmailCheck } from './email-check.js';
import { EmailField } from './email-field.js';

const noop = () => undefined;

function render(value: string, check: EmailCheck) {
  return renderPage(
    <ThemeProvider theme={theme}>
      <EmailField id="email" value={value} check={check} onChange={noop} onBlur={noop} onUseSuggestion={noop} />
    </ThemeProvider>,
  );
}

describe('the e-mail field', () => {
  it('ticks an accepted address with nothing to suggest', () => {
    const { html, text } = render('ana@acme.com', { state: 'valid' });
    expect(html).to.include('aria-label="Email address looks good"');
    expect(text).to.not.include('Did you mean');
  });

  it('gives no tick to an accepted address that is close to another: it asks the visitor to check, with the suggestion', () => {
    const { html, text } = render('ana@acme.cm', { state: 'valid', suggestion: 'ana@acme.com' });
    expect(html).to.not.include('looks good');
    expect(html).to.not.include('role="img"');
    expect(text).to.include('Please check the email address');
    expect(text).to.include('Did you mean: ana@acme.com ?');
  });

  it('crosses a refused address and shows its reason beside the suggestion', () => {
    const reason = 'This address cannot receive mail: “.con” is not a domain ending. Please check it.';
    const { html, text } = render('ana@acme.con', { state: 'invalid', reason, suggestion: 'ana@acme.com' });
    expect(html).to.include('aria-label="Email address not accepted"');
    expect(text).to.include(reason);
    expect(text).to.include('Did you mean: ana@acme.com ?');
  });
});
