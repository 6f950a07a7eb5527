import { startTransition } from 'react';
import { rememberAttribution, visitStorage } from '../features/demo-request/attribution.js';

/**
 * Starts the page in steps, each in its own task: React DOM, then styled-components (which reads the
 * prerendered style tag), then the page's components, then hydration in a transition, which React
 * slices further. The prerendered page is on screen throughout; no step blocks input for long.
 * Every chunk named here is also a deferred script in the HTML, so nothing waits on the network.
 */
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

// A button pressed before React has attached its listeners (between these steps) is pressed again
// once it has, so an early click on Get Started is not lost. The menu button works without script (it opens
// a popover), so pressing it again would only close the menu.
let earlyPress: HTMLElement | null = null;
const rememberPress = (event: MouseEvent) => {
  earlyPress = event.target instanceof Element ? event.target.closest('button:not([popovertarget])') : null;
};

async function start(container: HTMLElement): Promise<void> {
  document.addEventListener('click', rememberPress, true);
  const { hydrateRoot } = await import(/* webpackChunkName: "react-dom" */ 'react-dom/client');
  await nextTask();
  await import(/* webpackChunkName: "styled" */ 'styled-components');
  await nextTask();
  const { Root } = await import(/* webpackChunkName: "page" */ './root.js');
  await nextTask();
  startTransition(() => void hydrateRoot(container, <Root pathname={window.location.pathname} />));
  document.removeEventListener('click', rememberPress, true);
  const pressed = earlyPress;
  if (pressed) setTimeout(() => pressed.click(), 0);
}

rememberAttribution(visitStorage(), new URL(window.location.href), document.referrer);

const container = document.getElementById('root');
if (container) {
  start(container).catch((error: unknown) => console.error('The page could not start.', error));
}
