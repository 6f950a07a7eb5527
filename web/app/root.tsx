import { ThemeProvider } from 'styled-components';
import { DEMO_PAGE_ATTRIBUTE } from '../features/demo-request/demo-launcher.js';
import { DemoShell } from '../features/demo-request/demo-shell.js';
import { NotFoundPage } from '../features/not-found/not-found-page.js';
import { SiteFooter } from '../features/site-footer/site-footer.js';
import { LandingPage } from './landing-page.js';
import { routeFor } from './routes.js';
import { theme } from '../components/theme.js';

/**
 * The root component, rendered at build time. In the browser the page is not hydrated: main.ts wires its few
 * interactive parts, and the Request Demo dialog is a React island of its own (demo-island.ts).
 */
export function Root({ pathname }: { pathname: string }) {
  return (
    <ThemeProvider theme={theme}>
      {routeFor(pathname) === 'landing' ? (
        <>
          <div {...{ [DEMO_PAGE_ATTRIBUTE]: '' }}>
            <LandingPage />
          </div>
          <DemoShell />
        </>
      ) : (
        <>
          <NotFoundPage />
          <SiteFooter landingPath="/" />
        </>
      )}
    </ThemeProvider>
  );
}
