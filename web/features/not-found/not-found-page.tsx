import { styled } from 'styled-components';
import { brand } from '../../../domain/brand.js';
import { Button } from '../../components/button.js';
import { Logo } from '../../components/logo.js';

// Short of the whole screen, so the footer below shows that there is more.
const Main = styled.main`
  min-height: 70vh;
  display: grid;
  place-items: center;
  padding: ${({ theme }) => theme.space[6]};
  background: ${({ theme }) => theme.colors.surfaceAlt};
`;

const Card = styled.div`
  width: min(32rem, 100%);
  background: ${({ theme }) => theme.colors.surface};
  border: 1px solid ${({ theme }) => theme.colors.border};
  border-radius: ${({ theme }) => theme.radius.lg};
  box-shadow: ${({ theme }) => theme.shadow.card};
  padding: ${({ theme }) => theme.space[8]};
`;

const Title = styled.h1`
  margin-top: ${({ theme }) => theme.space[6]};
  font-size: ${({ theme }) => theme.text['2xl']};
  font-weight: 800;
`;

const Hint = styled.p`
  margin: ${({ theme }) => `${theme.space[3]} 0 ${theme.space[6]}`};
  color: ${({ theme }) => theme.colors.inkSoft};
`;

export const NOT_FOUND_TITLE = '404 Page Not Found';

export function NotFoundPage() {
  return (
    <Main>
      <Card>
        <Logo name={brand.product} />
        <Title>{NOT_FOUND_TITLE}</Title>
        <Hint>Did you forget to add the page to the router? There is nothing at this address.</Hint>
        <Button as="a" href="/">
          Back to the home page
        </Button>
      </Card>
    </Main>
  );
}
