import { expect } from 'chai';
import { answerProblems, decideRoute, routeLabel, withinDomain, type RouteRule } from './routing.js';

const team = ['anna@converge.test', 'dana@converge.test', 'lina@converge.test'];
const routes: RouteRule[] = [
  { when: { emailDomain: ['competitor.example'] }, disqualify: 'Thank you! Our team will reach out by e-mail.' },
  { when: { companySize: ['5000+'], region: ['Europe'] }, hosts: ['dana@converge.test', 'anna@converge.test'] },
  { label: 'Large companies elsewhere', when: { companySize: ['500-4999', '5000+'] }, hosts: ['lina@converge.test'] },
  { hosts: '*' },
];

describe('routing: the first route that matches decides', () => {
  it('sends each prospect by their answers and their e-mail domain, first match first', () => {
    const big = { companySize: '5000+', region: 'Europe' };
    expect(decideRoute(routes, big, 'bank.example', team)).to.deep.equal({
      kind: 'hosts',
      rule: 1,
      label: 'companySize: 5000+; region: Europe',
      hosts: ['dana@converge.test', 'anna@converge.test'],
    });
    expect(decideRoute(routes, { companySize: '5000+', region: 'Other' }, 'bank.example', team)).to.deep.include({
      rule: 2,
      label: 'Large companies elsewhere',
      hosts: ['lina@converge.test'],
    });
    expect(decideRoute(routes, { companySize: '1-49', region: 'Europe' }, 'start.example', team)).to.deep.include({
      rule: 3,
      label: 'everyone',
      hosts: team,
    });
    // The competitor comes first, whatever they answer, and from any subdomain.
    expect(decideRoute(routes, big, 'research.competitor.example', team)).to.deep.equal({
      kind: 'disqualified',
      rule: 0,
      label: 'emailDomain: competitor.example',
      message: 'Thank you! Our team will reach out by e-mail.',
    });
  });

  it('offers no host when nothing matches and there is no catch-all, never every host', () => {
    expect(decideRoute(routes.slice(0, 3), { companySize: '1-49' }, 'start.example', team)).to.deep.equal({
      kind: 'unrouted',
    });
    expect(decideRoute([], {}, 'start.example', team)).to.deep.equal({ kind: 'unrouted' });
  });

  it('matches a domain and its subdomains only, not a name that merely ends alike', () => {
    expect(withinDomain('competitor.example', 'competitor.example')).to.equal(true);
    expect(withinDomain('eu.competitor.example', 'competitor.example')).to.equal(true);
    expect(withinDomain('notcompetitor.example', 'competitor.example')).to.equal(false);
    expect(decideRoute(routes, {}, 'notcompetitor.example', team)).to.deep.include({ rule: 3 });
  });

  it('names a route by its label, else by what it matches', () => {
    expect(routes.map(routeLabel)).to.deep.equal([
      'emailDomain: competitor.example',
      'companySize: 5000+; region: Europe',
      'Large companies elsewhere',
      'everyone',
    ]);
  });
});

describe('routing: the answers checked against the questions', () => {
  const questions = [
    { id: 'companySize', label: 'Company size', options: ['1-49', '5000+'] },
    { id: 'region', label: 'Region', options: ['Europe', 'Other'] },
  ];
  it('says beside each question what is missing, unknown or not asked', () => {
    expect(answerProblems(questions, { companySize: '5000+', region: 'Europe' })).to.deep.equal({});
    expect(answerProblems(questions, { companySize: 'huge', colour: 'red' })).to.deep.equal({
      companySize: 'Company size must be one of: 1-49, 5000+.',
      region: 'Please choose your region.',
      colour: '"colour" is not a question of this form.',
    });
    expect(answerProblems([], {})).to.deep.equal({});
  });
});
