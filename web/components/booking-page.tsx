/** The booking's own pages (its manage page, and the booking pages without script): one box on a plain page. */
import { styled } from 'styled-components';

export const BookingPageMain = styled.main`
  /* A screen tall at least: the card grows once the booking has loaded, and the footer must not jump up the screen. */
  min-height: 100vh;
  background: ${({ theme }) => theme.colors.surfaceAlt};
  padding: ${({ theme }) => `${theme.space[8]} 0 ${theme.space[16]}`};
  ${({ theme }) => theme.media.sm} {
    padding-top: ${({ theme }) => theme.space[12]};
  }
`;

export const BookingPageColumn = styled.div`
  max-width: 52rem;
  margin: 0 auto;
`;

export const BookingCard = styled.div`
  padding: ${({ theme }) => theme.space[5]};
  background: ${({ theme }) => theme.colors.surface};
  border: 1px solid ${({ theme }) => theme.colors.border};
  border-radius: ${({ theme }) => theme.radius.lg};
  box-shadow: ${({ theme }) => theme.shadow.card};
  ${({ theme }) => theme.media.sm} {
    padding: ${({ theme }) => theme.space[8]};
  }
`;

/** A booking's facts as terms and their values: stacked on a phone, side by side from the small breakpoint. */
export const BookingFacts = styled.dl`
  display: grid;
  gap: ${({ theme }) => theme.space[1]};
  margin: ${({ theme }) => `${theme.space[6]} 0 0`};
  dt {
    font-size: ${({ theme }) => theme.text.sm};
    font-weight: 600;
    color: ${({ theme }) => theme.colors.muted};
  }
  dd {
    margin: 0 0 ${({ theme }) => theme.space[3]};
    overflow-wrap: anywhere;
  }
  ${({ theme }) => theme.media.sm} {
    grid-template-columns: 8rem minmax(0, 1fr);
    gap: ${({ theme }) => theme.space[3]};
    dd {
      margin: 0;
    }
  }
`;
