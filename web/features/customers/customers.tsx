import { styled } from 'styled-components';
import { CUSTOMERS, Wordmark } from '../../components/customer-wordmarks.js';
import { Container } from '../../components/layout.js';

const Shell = styled.section`
  padding: ${({ theme }) => `${theme.space[10]} 0`};
  border-bottom: 1px solid ${({ theme }) => theme.colors.border};
  text-align: center;
  color: ${({ theme }) => theme.colors.muted};
`;

const Title = styled.h2`
  font-size: ${({ theme }) => theme.text.sm};
  font-weight: 600;
`;

const Marks = styled.ul`
  display: flex;
  flex-wrap: wrap;
  justify-content: center;
  gap: ${({ theme }) => `${theme.space[6]} ${theme.space[12]}`};
  margin-top: ${({ theme }) => theme.space[6]};
  padding: 0;
  list-style: none;
  svg {
    height: 28px;
    width: auto;
  }
`;

/** The strip under the hero: who runs on the platform, as their wordmarks. */
export function Customers() {
  return (
    <Shell aria-labelledby="customers-title" data-layout="logo-strip">
      <Container>
        <Title id="customers-title">
          Trusted by 7,000+ enterprises, from banks and retailers to airlines and carriers
        </Title>
        <Marks>
          {CUSTOMERS.map((name) => (
            <li key={name}>
              <Wordmark name={name} />
            </li>
          ))}
        </Marks>
      </Container>
    </Shell>
  );
}
