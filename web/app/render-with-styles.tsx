import type { ReactElement } from 'react';
import { renderToString } from 'react-dom/server';
import { ServerStyleSheet } from 'styled-components';

export interface RenderedPage {
  /** The root component's markup. */
  body: string;
  /** The style tags ServerStyleSheet collected: the page's critical CSS. */
  styles: string;
}

/** Renders a page's root with the styles it uses, with the styled-components of the bundle it is part of. */
export function renderWithStyles(element: ReactElement): RenderedPage {
  const sheet = new ServerStyleSheet();
  try {
    const body = renderToString(sheet.collectStyles(element));
    return { body, styles: sheet.getStyleTags() };
  } finally {
    sheet.seal();
  }
}

/**
 * A page the browser never hydrates (every page but the booking page) keeps only what it draws with: its elements
 * lose styled-components' component ids (sc-…, classes with no rules, there for hydration and component selectors,
 * which the site does not use), and its style block becomes plain CSS, without the markers a browser-side
 * styled-components would read it back by. Unmarked, the block is also left alone by the dialog's styled-components,
 * which keeps a sheet of its own.
 */
export function staticPage({ body, styles }: RenderedPage): RenderedPage {
  return {
    body: body.replace(/ class="([^"]*)"/g, (_, names: string) => {
      const kept = names.split(' ').filter((name) => name !== '' && !name.startsWith('sc-'));
      return kept.length > 0 ? ` class="${kept.join(' ')}"` : '';
    }),
    styles: styles
      .replace(/<style data-styled="[^"]*" data-styled-version="[^"]*">/g, '<style>')
      .replace(/data-styled\.g\d+\[id="[^"]*"\]\{content:"[^"]*"\}\/\*!sc\*\/\n?/g, '')
      .replace(/\/\*!sc\*\/\n?/g, ''),
  };
}

/**
 * A page no part of which the browser hydrates: as staticPage, and without React's text separators (an empty comment
 * between adjacent texts, by which hydration tells them apart), the texts reading and drawing the same without them.
 */
export function unhydratedPage(rendered: RenderedPage): RenderedPage {
  const page = staticPage(rendered);
  return { ...page, body: page.body.replaceAll('<!-- -->', '') };
}
