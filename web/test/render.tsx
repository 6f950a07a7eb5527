/** Server rendering for unit tests: the HTML, its visible text in one line, and the collected styles. */
import type { ReactElement } from 'react';
import { renderToString } from 'react-dom/server';
import { ServerStyleSheet } from 'styled-components';

export function renderPage(element: ReactElement): { html: string; text: string; styles: string } {
  const sheet = new ServerStyleSheet();
  try {
    const html = renderToString(sheet.collectStyles(element));
    const text = html
      .replace(/<!-- -->/g, '')
      .replace(/<[^>]+>/g, ' ')
      .replace(/&#x27;|&#39;/g, "'")
      .replace(/&amp;/g, '&')
      .replace(/\s+/g, ' ');
    return { html, text, styles: sheet.getStyleTags() };
  } finally {
    sheet.seal();
  }
}
