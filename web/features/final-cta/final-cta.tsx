import { styled } from 'styled-components';
import { SLOT_DURATION_MINUTES } from '../../../domain/booking.js';
import { Container } from '../../components/layout.js';
import { DemoTrigger } from '../../components/demo-trigger.js';

const Shell = styled.section`
  padding: ${({ theme }) => `${theme.space[16]} 0`};
  ${({ theme }) => theme.media.md} {
    padding: ${({ theme }) => `${theme.space[20]} 0`};
  }
`;

const Panel = styled.div`
  border-radius: ${({ theme }) => theme.radius.lg};
  padding: ${({ theme }) => `${theme.space[12]} ${theme.space[6]}`};
  text-align: center;
  color: #fff;
  background:
    radial-gradient(40rem 20rem at 100% 0%, rgba(94, 234, 212, 0.25), transparent 60%),
    linear-gradient(135deg, #3730a3, #1e1b4b);
`;

const Title = styled.h2`
  font-size: ${({ theme }) => theme.text['3xl']};
  font-weight: 800;
`;

const Text = styled.p`
  max-width: 38rem;
  margin: ${({ theme }) => `${theme.space[4]} auto ${theme.space[8]}`};
  font-size: ${({ theme }) => theme.text.lg};
  color: #e0e7ff;
`;

export function FinalCta() {
  return (
    <Shell aria-labelledby="final-cta-title" data-layout="banner">
      <Container>
        <Panel>
          <Title id="final-cta-title">See Converge on your own customer journeys</Title>
          <Text>
            Book a {SLOT_DURATION_MINUTES}-minute demo with a solutions engineer. Bring one use case; leave with an
            architecture and a rollout plan.
          </Text>
          <DemoTrigger variant="onNight" size="lg">
            Request Demo
          </DemoTrigger>
        </Panel>
      </Container>
    </Shell>
  );
}
