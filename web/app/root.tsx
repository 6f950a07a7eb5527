import { ThemeProvider } from 'styled-components';
import { DEMO_LAYER_ID, DEMO_PAGE_ATTRIBUTE } from '../features/demo-request/demo-launcher.js';
import { NotFoundPage } from '../features/not-found/not-found-page.js';
import { SiteFooter } from '../features/site-footer/site-footer.js';
import { LandingPage } from './landing-page.js';
import { routeFor } from './routes.js';
import { theme } from '../components/theme.js';

interface RootProps {
  pathname: string;
  /**
   * The Request Demo dialog's markup, rendered as a root of its own (demo-runtime.tsx) so that the browser can
   * hydrate it alone; written into its layer as it is.
   */
  dialogMarkup?: string;
}

/**
 * The root component, rendered at build time. In the browser the page is not hydrated: main.ts wires its few
 * interactive parts, and the Request Demo dialog is a React island of its own (demo-island.ts).
 */
export function Root({ pathname, dialogMarkup = '' }: RootProps) {
  return (
    <ThemeProvider theme={theme}>
      {routeFor(pathname) === 'landing' ? (
        <>
          <div {...{ [DEMO_PAGE_ATTRIBUTE]: '' }}>
            <LandingPage />
          </div>
          <div id={DEMO_LAYER_ID} dangerouslySetInnerHTML={{ __html: dialogMarkup }} />
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
