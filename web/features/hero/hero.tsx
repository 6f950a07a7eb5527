import { styled } from 'styled-components';
import { brand } from '../../../domain/brand.js';
import { Button } from '../../components/button.js';
import {
  ArrowRightIcon,
  ChatIcon,
  MailIcon,
  MessageIcon,
  PhoneIcon,
  RichCardIcon,
  ShieldIcon,
} from '../../components/icons.js';
import { Container } from '../../components/layout.js';
import { DemoTrigger } from '../../components/demo-trigger.js';

const Shell = styled.section`
  position: relative;
  overflow: hidden;
  color: ${({ theme }) => theme.colors.onNight};
  background:
    radial-gradient(60rem 30rem at 85% -10%, rgba(99, 102, 241, 0.45), transparent 60%),
    radial-gradient(40rem 24rem at -10% 110%, rgba(20, 184, 166, 0.3), transparent 60%),
    ${({ theme }) => theme.colors.night};
  padding: ${({ theme }) => `${theme.space[16]} 0 ${theme.space[16]}`};
  ${({ theme }) => theme.media.md} {
    padding: ${({ theme }) => `${theme.space[24]} 0`};
  }
`;

const Grid = styled(Container)`
  display: grid;
  gap: ${({ theme }) => theme.space[12]};
  ${({ theme }) => theme.media.md} {
    grid-template-columns: minmax(0, 1.25fr) minmax(0, 1fr);
    align-items: center;
  }
`;

const Kicker = styled.p`
  display: inline-block;
  padding: ${({ theme }) => `${theme.space[1]} ${theme.space[3]}`};
  border: 1px solid rgba(165, 180, 252, 0.5);
  border-radius: ${({ theme }) => theme.radius.pill};
  color: #c7d2fe;
  font-size: ${({ theme }) => theme.text.sm};
  font-weight: 600;
`;

const Title = styled.h1`
  margin-top: ${({ theme }) => theme.space[5]};
  font-size: ${({ theme }) => theme.text['4xl']};
  font-weight: 800;
  letter-spacing: -0.02em;
`;

const Lead = styled.p`
  margin-top: ${({ theme }) => theme.space[5]};
  max-width: 36rem;
  font-size: ${({ theme }) => theme.text.lg};
  color: ${({ theme }) => theme.colors.onNightMuted};
`;

const Actions = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: ${({ theme }) => theme.space[3]};
  margin-top: ${({ theme }) => theme.space[8]};
`;

const Proof = styled.ul`
  display: flex;
  flex-wrap: wrap;
  gap: ${({ theme }) => `${theme.space[3]} ${theme.space[8]}`};
  margin-top: ${({ theme }) => theme.space[10]};
  padding: 0;
  list-style: none;
  color: ${({ theme }) => theme.colors.onNightMuted};
  strong {
    display: block;
    font-size: ${({ theme }) => theme.text['2xl']};
    color: #fff;
  }
`;

const Badge = styled.li`
  display: flex;
  align-items: center;
  gap: ${({ theme }) => theme.space[3]};
  padding: ${({ theme }) => `${theme.space[2]} ${theme.space[4]} ${theme.space[2]} ${theme.space[3]}`};
  border: 1px solid rgba(94, 234, 212, 0.45);
  border-radius: ${({ theme }) => theme.radius.md};
  background: rgba(94, 234, 212, 0.08);
  svg {
    color: #5eead4;
    flex: none;
  }
  strong {
    font-size: ${({ theme }) => theme.text.md};
  }
`;

const Visual = styled.div`
  position: relative;
  border: 1px solid rgba(165, 180, 252, 0.25);
  border-radius: ${({ theme }) => theme.radius.lg};
  background: rgba(22, 34, 74, 0.7);
  padding: ${({ theme }) => theme.space[6]};
`;

const Thread = styled.ul`
  display: grid;
  gap: ${({ theme }) => theme.space[3]};
  padding: 0;
  list-style: none;
`;

const Bubble = styled.li<{ $fromAgent?: boolean }>`
  justify-self: ${({ $fromAgent }) => ($fromAgent ? 'start' : 'end')};
  max-width: 85%;
  display: flex;
  gap: ${({ theme }) => theme.space[2]};
  align-items: flex-start;
  padding: ${({ theme }) => `${theme.space[3]} ${theme.space[4]}`};
  border-radius: ${({ theme }) => theme.radius.md};
  background: ${({ $fromAgent }) => ($fromAgent ? '#ffffff' : '#4338ca')};
  color: ${({ $fromAgent, theme }) => ($fromAgent ? theme.colors.ink : '#fff')};
  font-size: ${({ theme }) => theme.text.sm};
  svg {
    flex: none;
    margin-top: ${({ theme }) => theme.space[0.5]};
  }
`;

const Channels = styled.ul`
  display: flex;
  justify-content: space-between;
  margin-top: ${({ theme }) => theme.space[5]};
  padding: ${({ theme }) => theme.space[3]} 0 0;
  list-style: none;
  border-top: 1px solid rgba(165, 180, 252, 0.25);
  font-size: ${({ theme }) => theme.text.xs};
  color: ${({ theme }) => theme.colors.onNightMuted};
  li {
    display: grid;
    justify-items: center;
    gap: ${({ theme }) => theme.space[1]};
  }
`;

export function Hero() {
  return (
    <Shell aria-labelledby="hero-title" data-layout="hero">
      <Grid>
        <div>
          <Kicker>{brand.tagline}</Kicker>
          <Title id="hero-title">Every customer conversation. One intelligent platform.</Title>
          <Lead>
            {brand.product} unifies SMS, WhatsApp, RCS, email and voice with AI agents and network APIs for identity,
            verification and fraud protection. Build a journey once and reach every customer on the channel they answer.
          </Lead>
          <Actions>
            <DemoTrigger variant="onNight" size="lg">
              Request Demo
            </DemoTrigger>
            <Button as="a" href="#architecture" $variant="secondary" $size="lg">
              See how it works <ArrowRightIcon size={20} />
            </Button>
          </Actions>
          <Proof aria-label="Why enterprises choose us">
            <li>
              <strong>7,000+</strong> enterprises
            </li>
            <li>
              <strong>200+</strong> countries
            </li>
            <Badge>
              <ShieldIcon size={36} />
              <span>
                <strong>Telecom-industry certified</strong>
                carrier-grade security and quality
              </span>
            </Badge>
          </Proof>
        </div>
        <Visual aria-hidden="true">
          <Thread>
            <Bubble>My card was declined in Lisbon. Was it blocked?</Bubble>
            <Bubble $fromAgent>
              <ShieldIcon size={16} />
              Verified your number with the network, no SIM swap. I&apos;ve unblocked the card for Portugal.
            </Bubble>
            <Bubble>Great, thanks. Can you text me the receipt?</Bubble>
            <Bubble $fromAgent>
              <MessageIcon size={16} />
              Sent by SMS just now, and a copy to your email.
            </Bubble>
          </Thread>
          <Channels>
            <li>
              <MessageIcon size={18} />
              SMS
            </li>
            <li>
              <ChatIcon size={18} />
              WhatsApp
            </li>
            <li>
              <RichCardIcon size={18} />
              RCS
            </li>
            <li>
              <MailIcon size={18} />
              Email
            </li>
            <li>
              <PhoneIcon size={18} />
              Voice
            </li>
          </Channels>
        </Visual>
      </Grid>
    </Shell>
  );
}
