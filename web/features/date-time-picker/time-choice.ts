/**
 * Where the picker's time is chosen, for the forms around it: they give focus back there when a time is refused. Apart
 * from date-time-picker.tsx, so a form can do so without loading the calendar's code.
 */

/** A day of react-calendar's month view. */
export const DAY_TILE = '.react-calendar__month-view__days__day';

/**
 * Focuses where the time is chosen again, inside `container`: a slot that can be chosen (not `avoidSlot`, the one
 * just refused), else an enabled day of the calendar.
 */
export function focusTimeChoice(container: ParentNode, avoidSlot?: string): void {
  const slots = Array.from(container.querySelectorAll<HTMLInputElement>('input[name="timeSlot"]'));
  const target =
    slots.find((input) => !input.disabled && input.value !== avoidSlot) ??
    container.querySelector<HTMLElement>(`${DAY_TILE}:enabled`);
  target?.focus();
}
