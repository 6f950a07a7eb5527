import { styled } from 'styled-components';

/**
 * react-calendar ships unstyled markup plus a stylesheet; these styles replace that stylesheet so the
 * calendar follows the theme and needs no CSS loader. It marks the chosen day by class alone, hence --active.
 */
export const CalendarFrame = styled.div`
  border: 1px solid ${({ theme }) => theme.colors.border};
  border-radius: ${({ theme }) => theme.radius.md};
  padding: ${({ theme }) => theme.space[2]};

  .react-calendar button {
    font: inherit;
    border: 0;
    background: none;
    cursor: pointer;
  }
  .react-calendar__navigation {
    display: flex;
    align-items: center;
    margin-bottom: ${({ theme }) => theme.space[2]};
  }
  .react-calendar__navigation button {
    min-width: 44px;
    min-height: 44px;
    display: inline-grid;
    place-items: center;
    border-radius: ${({ theme }) => theme.radius.sm};
    color: ${({ theme }) => theme.colors.ink};
  }
  .react-calendar__navigation button:enabled:hover {
    background: ${({ theme }) => theme.colors.surfaceAlt};
  }
  .react-calendar__navigation button:disabled {
    color: ${({ theme }) => theme.colors.borderStrong};
    cursor: default;
  }
  .react-calendar__navigation__label {
    flex-grow: 1;
    font-weight: 700;
  }
  .react-calendar__navigation__label:disabled {
    color: ${({ theme }) => theme.colors.ink} !important;
  }
  .react-calendar__month-view__weekdays {
    text-align: center;
    font-size: ${({ theme }) => theme.text.xs};
    font-weight: 700;
    text-transform: uppercase;
    color: ${({ theme }) => theme.colors.muted};
    padding-bottom: ${({ theme }) => theme.space[1]};
  }
  .react-calendar__month-view__weekdays abbr {
    text-decoration: none;
  }
  .react-calendar__tile {
    aspect-ratio: 1;
    min-height: 36px;
    border-radius: ${({ theme }) => theme.radius.sm};
    color: ${({ theme }) => theme.colors.ink};
    font-weight: 600;
  }
  .react-calendar .react-calendar__tile:enabled:hover {
    background: ${({ theme }) => theme.colors.primarySoft};
  }
  .react-calendar__tile:disabled {
    color: #a3abbd;
    font-weight: 400;
    cursor: not-allowed;
  }
  .react-calendar__tile abbr {
    text-decoration: none;
  }
  .react-calendar__tile--now {
    box-shadow: inset 0 0 0 1px ${({ theme }) => theme.colors.borderStrong};
  }
  /* Same specificity as the reset of .react-calendar button above, and later, so it wins. */
  .react-calendar .react-calendar__tile--active,
  .react-calendar .react-calendar__tile--active:enabled:hover {
    background: ${({ theme }) => theme.colors.primary};
    color: #fff;
  }
`;
