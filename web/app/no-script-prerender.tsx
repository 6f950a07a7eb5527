import { ThemeProvider } from 'styled-components';
import type { NoScriptPage } from '../../domain/no-script-pages.js';
import { LegalTopBar } from '../features/legal/legal-page.js';
import { NoScriptPageContent, noScriptPageTitle } from '../features/no-script-booking/no-script-pages.js';
import { SiteFooter } from '../features/site-footer/site-footer.js';
import { theme } from '../components/theme.js';
import { renderWithStyles, staticPage, type RenderedPage } from './render-with-styles.js';

/**
 * The booking pages that work without script (the form at /book, a booking's move and cancel steps), rendered by the
 * API on each request (api/no-script/routes.ts) into the shell the build writes (no-script.html). A bundle of its
 * own, as the booking page's render is: never hydrated, so it keeps only what it draws with (staticPage).
 */
export function renderNoScriptPage(page: NoScriptPage, zone: string): RenderedPage & { title: string } {
  const rendered = staticPage(
    renderWithStyles(
      <ThemeProvider theme={theme}>
        <LegalTopBar />
        <NoScriptPageContent page={page} zone={zone} />
        <SiteFooter landingPath="/" />
      </ThemeProvider>,
    ),
  );
  return { ...rendered, title: noScriptPageTitle(page) };
}
