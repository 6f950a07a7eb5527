import { styled } from 'styled-components';
import { brand } from '../../../domain/brand.js';
import { Container } from '../../components/layout.js';
import { Logo } from '../../components/logo.js';
import type { LegalDocument } from './legal-documents.js';

const Bar = styled.header`
  background: #fff;
  border-bottom: 1px solid ${({ theme }) => theme.colors.border};
`;

const BarInner = styled(Container)`
  display: flex;
  align-items: center;
  height: ${({ theme }) => theme.layout.topBarHeight};
`;

const HomeLink = styled.a`
  text-decoration: none;
  color: ${({ theme }) => theme.colors.ink};
  border-radius: ${({ theme }) => theme.radius.sm};
`;

/** The top bar of a legal page: the logo, home. No Get Started here: the form needs the landing page's code. */
export function LegalTopBar() {
  return (
    <Bar>
      <BarInner>
        <HomeLink href="/" aria-label={`${brand.product} home`}>
          <Logo name={brand.product} />
        </HomeLink>
      </BarInner>
    </Bar>
  );
}

const Main = styled.main`
  background: ${({ theme }) => theme.colors.surfaceAlt};
  padding: ${({ theme }) => `${theme.space[12]} 0 ${theme.space[16]}`};
`;

const Article = styled.article`
  max-width: 46rem;
  margin: 0 auto;
  padding: ${({ theme }) => theme.space[8]};
  background: ${({ theme }) => theme.colors.surface};
  border: 1px solid ${({ theme }) => theme.colors.border};
  border-radius: ${({ theme }) => theme.radius.lg};
  box-shadow: ${({ theme }) => theme.shadow.card};
  color: ${({ theme }) => theme.colors.inkSoft};
  h1 {
    color: ${({ theme }) => theme.colors.ink};
    font-size: ${({ theme }) => theme.text['3xl']};
    font-weight: 800;
  }
  h2 {
    margin-top: ${({ theme }) => theme.space[8]};
    color: ${({ theme }) => theme.colors.ink};
    font-size: ${({ theme }) => theme.text.xl};
    font-weight: 700;
  }
  p,
  ul {
    margin-top: ${({ theme }) => theme.space[3]};
  }
  ul {
    padding-left: ${({ theme }) => theme.space[6]};
  }
  li + li {
    margin-top: ${({ theme }) => theme.space[1]};
  }
`;

const Intro = styled.p`
  font-size: ${({ theme }) => theme.text.lg};
  color: ${({ theme }) => theme.colors.ink};
`;

/** One legal document as the page's main content. */
export function LegalArticle({ document }: { document: LegalDocument }) {
  return (
    <Main id="main">
      <Container>
        <Article aria-labelledby="legal-title">
          <h1 id="legal-title">{document.title}</h1>
          <Intro>{document.intro}</Intro>
          {document.sections.map((section) => (
            <section key={section.heading}>
              <h2>{section.heading}</h2>
              {section.paragraphs?.map((paragraph) => (
                <p key={paragraph}>{paragraph}</p>
              ))}
              {section.list ? (
                <ul>
                  {section.list.map((item) => (
                    <li key={item}>{item}</li>
                  ))}
                </ul>
              ) : null}
            </section>
          ))}
        </Article>
      </Container>
    </Main>
  );
}
