import { expect } from 'chai';
import { ApiError } from '../errors.js';
import { createProspectRouter, routedTeam, type ProspectRouting } from './prospect-route.js';
import { NotRoutedError, routeProspect } from './route-answer.js';

const questions = [{ id: 'companySize', label: 'Company size', options: ['1-49', '5000+'] }];
const hosts = [{ email: 'anna@converge.test' }, { email: 'dana@converge.test' }];
const routing = (routes: Parameters<typeof createProspectRouter>[0]['routes']): ProspectRouting => ({
  questions,
  routed: true,
  router: createProspectRouter({ hosts, routes }, {}),
  team: routedTeam({ hosts, routes }),
  close: () => {},
});
const routed = routing([
  { when: { emailDomain: ['competitor.example'] }, disqualify: 'Thank you! Our team will reach out by e-mail.' },
  { when: { companySize: ['5000+'] }, hosts: ['dana@converge.test'] },
]);

async function refusal(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe("the routing's answer to a prospect", () => {
  it("gives the matching route's hosts", async () => {
    const route = await routeProspect(routed, 'cfo@bank.example', { companySize: '5000+' }, 'sales@converge.test');
    expect(route.decision.hosts).to.deep.equal(['dana@converge.test']);
  });

  it('refuses a missing or unknown answer beside its question (400)', async () => {
    const cases: (Record<string, string> | undefined)[] = [
      undefined,
      { companySize: '10' },
      { companySize: '5000+', colour: 'red' },
    ];
    for (const answers of cases) {
      const error = await refusal(routeProspect(routed, 'cfo@bank.example', answers, 'sales@converge.test'));
      expect(error.status).to.equal(400);
      expect(Object.keys(error.fields ?? {})[0]).to.match(/^answers\.(companySize|colour)$/);
    }
  });

  it('answers 422 with the words to show when disqualified, or when no route matches (never every host)', async () => {
    const competitor = await refusal(
      routeProspect(routed, 'x@eu.competitor.example', { companySize: '5000+' }, 'sales@converge.test'),
    );
    expect(competitor).to.be.instanceOf(NotRoutedError);
    expect(competitor.status).to.equal(422);
    expect(competitor.body()).to.deep.include({
      disqualified: true,
      message: 'Thank you! Our team will reach out by e-mail.',
    });
    const small = await refusal(
      routeProspect(routed, 'cfo@shop.example', { companySize: '1-49' }, 'sales@converge.test'),
    );
    expect(small.status).to.equal(422);
    expect(small.body()).to.deep.include({ unrouted: true });
    expect(small.details).to.contain('sales@converge.test');
  });
});
