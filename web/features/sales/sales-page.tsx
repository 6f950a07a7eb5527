import { useCallback, useEffect, useRef, useState } from 'react';
import { styled } from 'styled-components';
import { Button } from '../../components/button.js';
import { useSalesSessionQuery, useSignOutMutation } from '../../store/sales-api.js';
import { BookingDetailView } from './booking-detail.js';
import { BookingList } from './booking-list.js';
import { FunnelPanel } from './funnel.js';
import { HostSharePanel } from './host-share.js';
import { Heading, Toolbar } from './parts.js';
import { SignInForm } from './sign-in-form.js';

const Main = styled.main`
  max-width: 1200px;
  margin: 0 auto;
  padding: ${({ theme }) => theme.space[6]} ${({ theme }) => theme.layout.gutter};
  display: grid;
  gap: ${({ theme }) => theme.space[6]};
`;

/** The bookings and the funnel, kept (with their filters) while one booking is open. */
const Sections = styled.div`
  display: grid;
  gap: ${({ theme }) => theme.space[6]};
  &[hidden] {
    display: none;
  }
`;

const Header = styled.header`
  display: flex;
  flex-wrap: wrap;
  justify-content: space-between;
  align-items: center;
  gap: ${({ theme }) => theme.space[4]};
`;

/**
 * The sales page (/admin): sign-in, then the bookings (search, filters, export) and one booking at a time (history,
 * marks, routing, handing to another host), each host's share of the demos, and the funnel (its steps per source and day, and the attendance per source).
 */
export function SalesPage({ timeZone }: { timeZone: string }) {
  const session = useSalesSessionQuery();
  const [signOut] = useSignOutMutation();
  const [openId, setOpenId] = useState<string | undefined>(undefined);
  const heading = useRef<HTMLHeadingElement>(null);
  const { refetch } = session;
  const sessionEnded = useCallback(() => void refetch(), [refetch]);
  const signedIn = session.data !== undefined;
  // After signing in, and back from a booking, the page's heading takes the focus: a screen reader starts there.
  const [focusHeading, setFocusHeading] = useState(false);
  useEffect(() => {
    if (signedIn && openId === undefined && focusHeading) heading.current?.focus();
  }, [signedIn, openId, focusHeading]);
  useEffect(() => {
    if (!signedIn) setFocusHeading(true);
  }, [signedIn]);

  if (session.isLoading) return <Main aria-busy="true">Checking your session…</Main>;
  // A session that ended meanwhile (8 hours, a new ADMIN_TOKEN, signed out elsewhere): its next read says 401.
  if (!session.data || session.isError) {
    return (
      <Main>
        <SignInForm />
      </Main>
    );
  }
  const { csrfToken } = session.data;
  return (
    <Main>
      <Header>
        <Heading tabIndex={-1} ref={heading}>
          Sales
        </Heading>
        <Toolbar>
          <Button type="button" $variant="secondary" onClick={() => void signOut({ csrfToken })}>
            Sign out
          </Button>
        </Toolbar>
      </Header>
      {openId ? (
        <BookingDetailView
          id={openId}
          timeZone={timeZone}
          csrfToken={csrfToken}
          onSessionEnded={sessionEnded}
          onBack={() => {
            setFocusHeading(true);
            setOpenId(undefined);
          }}
        />
      ) : null}
      <Sections hidden={openId !== undefined}>
        <BookingList timeZone={timeZone} onOpen={setOpenId} onSessionEnded={sessionEnded} />
        <HostSharePanel onSessionEnded={sessionEnded} />
        <FunnelPanel timeZone={timeZone} onSessionEnded={sessionEnded} />
      </Sections>
    </Main>
  );
}
