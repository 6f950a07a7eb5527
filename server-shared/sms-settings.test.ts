import { expect } from 'chai';
import { ConfigError } from './settings.js';
import { parseSmsSettings } from './sms-settings.js';

describe('the texts’ settings (SMPP_URL and its window, SMS_FROM)', () => {
  it('sends no texts without SMPP_URL', () => {
    expect(parseSmsSettings({})).to.equal(undefined);
    expect(parseSmsSettings({ SMS_FROM: 'Converge' })).to.equal(undefined);
  });

  it('reads the bind’s account and the SMSC from the URL, the port 2775 when none is given', () => {
    expect(
      parseSmsSettings({ SMPP_URL: 'smpp://converge:s%40cret@smsc.example:2776', SMS_FROM: 'Converge' }),
    ).to.deep.equal({
      host: 'smsc.example',
      port: 2776,
      systemId: 'converge',
      password: 's@cret',
      from: 'Converge',
      window: 10,
    });
    expect(
      parseSmsSettings({ SMPP_URL: 'smpp://converge:pw@smsc.example?window=50', SMS_FROM: 'Converge' }),
    ).to.include({ window: 50 });
    expect(parseSmsSettings({ SMPP_URL: 'smpp://converge:pw@smsc.example', SMS_FROM: '+4915123456789' })).to.include({
      port: 2775,
      from: '+4915123456789',
    });
  });

  it('refuses to start with SMPP_URL without SMS_FROM, or either malformed', () => {
    for (const env of [
      { SMPP_URL: 'smpp://converge:pw@smsc.example:2775' },
      { SMPP_URL: 'http://converge:pw@smsc.example', SMS_FROM: 'Converge' },
      { SMPP_URL: 'smpp://smsc.example', SMS_FROM: 'Converge' },
      { SMPP_URL: 'smpp://converge:pw@smsc.example', SMS_FROM: 'Converge Demos Team' },
      { SMPP_URL: 'smpp://converge:pw@smsc.example?window=0', SMS_FROM: 'Converge' },
      { SMPP_URL: 'smpp://converge:pw@smsc.example?window=ten', SMS_FROM: 'Converge' },
    ])
      expect(() => parseSmsSettings(env), JSON.stringify(env)).to.throw(ConfigError);
  });
});
