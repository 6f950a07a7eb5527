import { ThemeProvider } from 'styled-components';
import { DemoHost } from '../features/demo-request/demo-host.js';
import { NotFoundPage } from '../features/not-found/not-found-page.js';
import { SiteFooter } from '../features/site-footer/site-footer.js';
import { LandingPage } from './landing-page.js';
import { routeFor } from './routes.js';
import { theme } from './theme.js';

/** The root component, rendered the same way at build time and in the browser so hydration matches. */
export function Root({ pathname }: { pathname: string }) {
  return (
    <ThemeProvider theme={theme}>
      {routeFor(pathname) === 'landing' ? (
        <DemoHost>
          {(inert) => (
            <div inert={inert}>
              <LandingPage />
            </div>
          )}
        </DemoHost>
      ) : (
        <>
          <NotFoundPage />
          <SiteFooter landingPath="/" />
        </>
      )}
    </ThemeProvider>
  );
}
