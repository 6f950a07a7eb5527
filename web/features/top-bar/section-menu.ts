/**
 * The section menu of narrow screens is a native popover, opened by its button with no script at all. This adds
 * what the browser does not: the button's aria-expanded follows the menu, Escape returns focus to the button (which
 * a click did not focus in Safari), and a chosen link closes the menu.
 */
export const MENU_ID = 'section-menu';

export function enhanceSectionMenu(doc: Document): void {
  const menu = doc.getElementById(MENU_ID);
  const button = doc.querySelector<HTMLElement>(`[popovertarget="${MENU_ID}"]`);
  if (!menu || !button) return;
  const isOpen = () => menu.matches(':popover-open');

  menu.addEventListener('toggle', (event) => {
    button.setAttribute('aria-expanded', String((event as ToggleEvent).newState === 'open'));
  });
  menu.addEventListener('keydown', (event) => {
    if (event.key === 'Escape' && isOpen()) button.focus();
  });
  menu.addEventListener('click', (event) => {
    const link = event.target instanceof Element ? event.target.closest('a') : null;
    if (!link || !isOpen()) return;
    // Blurred before closing, so focus does not jump back to the button: the browser's move to the section then
    // sets where Tab goes next.
    link.blur();
    menu.hidePopover();
  });
  // A menu opened before this ran (the button works without script) is described as it is.
  if (isOpen()) button.setAttribute('aria-expanded', 'true');
}
