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
