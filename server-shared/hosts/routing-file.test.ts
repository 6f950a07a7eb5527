import { expect } from 'chai';
import { ConfigError } from '../settings.js';
import { parseTeamRouting } from './routing-file.js';

const hosts = [{ email: 'anna@converge.test' }, { email: 'Dana@converge.test' }];
const questions = [
  { id: 'companySize', label: 'Company size', options: ['1-49', '50-499', '500-4999', '5000+'] },
  { id: 'region', label: 'Region', options: ['Europe', 'North America', 'Asia Pacific', 'Other'] },
];
const routed = (routes: unknown[] | undefined, asked: unknown[] = questions) =>
  parseTeamRouting({ hosts: [], questions: asked, ...(routes ? { routes } : {}) }, hosts, 'TEAM_FILE');

describe("the team file's questions and routes", () => {
  it('gives them as written, and none without the keys (every host takes every prospect)', () => {
    const routes = [
      { when: { companySize: ['5000+'] }, hosts: ['dana@converge.test', 'anna@converge.test'] },
      { when: { emailDomain: ['competitor.example'] }, disqualify: 'Thank you! Our team will reach out by e-mail.' },
      { label: 'Everyone else', hosts: '*' },
    ];
    expect(routed(routes)).to.deep.equal({ questions, routes });
    expect(parseTeamRouting({ hosts: [] }, hosts, 'TEAM_FILE')).to.deep.equal({ questions: [], routes: undefined });
    // Questions alone are asked and their answers kept, every host taking every prospect.
    expect(routed(undefined)).to.deep.equal({ questions, routes: undefined });
  });

  it('stops start-up naming what is wrong in them', () => {
    const cases: [() => unknown, string][] = [
      [() => routed([{ when: { companySize: ['5000+'] } }]), '/routes/0 needs one of hosts and disqualify'],
      [() => routed([{ hosts: '*', disqualify: 'No.' }]), '/routes/0 needs one of hosts and disqualify'],
      [() => routed([{ hosts: 'everyone' }]), `/routes/0/hosts must be a list of the hosts' e-mails, or "*"`],
      [() => routed([{ hosts: [] }]), `/routes/0/hosts must be a list of the hosts' e-mails, or "*"`],
      [
        () => routed([{ hosts: '*' }, { hosts: ['lina@converge.test'] }]),
        '/routes/1/hosts "lina@converge.test" is not a host',
      ],
      [
        () => routed([{ when: { size: ['5000+'] }, hosts: '*' }]),
        '/routes/0/when/size is neither a question id nor emailDomain',
      ],
      [
        () => routed([{ when: { companySize: ['huge'] }, hosts: '*' }]),
        '/routes/0/when/companySize "huge" is not an option',
      ],
      [() => routed([{ when: { region: [] }, hosts: '*' }]), '/routes/0/when/region must NOT have fewer than 1 items'],
      [() => routed([{ hosts: '*', colour: 'red' }]), '/routes/0 has an unknown field "colour"'],
      [() => routed([]), '/routes must NOT have fewer than 1 items'],
      [() => routed([{ hosts: '*' }], [questions[0], questions[0]]), '/questions/1/id "companySize" is used twice'],
      [() => routed([{ hosts: '*' }], [{ id: 'emailDomain', label: 'Domain', options: ['a', 'b'] }]), 'is reserved'],
      [
        () => routed([{ hosts: '*' }], [{ id: 'size', label: 'Size', options: ['one'] }]),
        '/questions/0/options must NOT have fewer than 2',
      ],
    ];
    for (const [parse, message] of cases) expect(parse, message).to.throw(ConfigError, message);
  });
});
