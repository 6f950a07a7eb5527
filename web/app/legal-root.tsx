import { ThemeProvider } from 'styled-components';
import type { LegalDocument } from '../features/legal/legal-documents.js';
import { LegalArticle, LegalTopBar } from '../features/legal/legal-page.js';
import { SiteFooter } from '../features/site-footer/site-footer.js';
import { theme } from '../components/theme.js';

/**
 * A legal page: static HTML with its critical CSS inline, rendered at build time only. It has nothing to
 * hydrate, so it ships no script and the browser bundle does not carry it.
 */
export function LegalRoot({ document }: { document: LegalDocument }) {
  return (
    <ThemeProvider theme={theme}>
      <LegalTopBar />
      <LegalArticle document={document} />
      <SiteFooter landingPath="/" />
    </ThemeProvider>
  );
}
