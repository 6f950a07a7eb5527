import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { loadWorkerConfig } from './config.js';

describe("the worker's settings", () => {
  it('stop it when BOOKING_LINK_SECRET is unset or shorter than 32 characters, saying how to make one', () => {
    expect(() => loadWorkerConfig({})).to.throw(/^BOOKING_LINK_SECRET is not set: .*openssl rand -hex 32$/);
    expect(() => loadWorkerConfig({ BOOKING_LINK_SECRET: 'short' })).to.throw(
      'BOOKING_LINK_SECRET must be at least 32 characters long (it has 5)',
    );
    expect(loadWorkerConfig({ BOOKING_LINK_SECRET: 's'.repeat(32) }).bookingLinkSecret).to.equal('s'.repeat(32));
  });

  it('keep personal data RETENTION_DAYS days after the slot: 730 unless told, a whole number above 0', () => {
    const secret = { BOOKING_LINK_SECRET: 's'.repeat(32) };
    expect(loadWorkerConfig(secret).retentionDays).to.equal(730);
    expect(loadWorkerConfig({ ...secret, RETENTION_DAYS: ' 90 ' }).retentionDays).to.equal(90);
    for (const wrong of ['0', '-5', '1.5', 'forever']) {
      expect(() => loadWorkerConfig({ ...secret, RETENTION_DAYS: wrong }), wrong).to.throw(
        `RETENTION_DAYS must be a whole number above 0, got "${wrong}"`,
      );
    }
  });

  it("name the sales desk's contact in every e-mail: CONTACT_EMAIL and CONTACT_PHONE, the brand's unless told, checked", () => {
    const secret = { BOOKING_LINK_SECRET: 's'.repeat(32) };
    expect(loadWorkerConfig(secret).contact).to.deep.equal({
      email: 'sales@northstar-converge.com',
      phone: '+49 30 5557 2100',
    });
    expect(
      loadWorkerConfig({ ...secret, CONTACT_EMAIL: ' demos@acme.example ', CONTACT_PHONE: '+1 (555) 010-0100' })
        .contact,
    ).to.deep.equal({
      email: 'demos@acme.example',
      phone: '+1 (555) 010-0100',
    });
    expect(() => loadWorkerConfig({ ...secret, CONTACT_EMAIL: 'Sales <sales@acme.example>' })).to.throw(
      'CONTACT_EMAIL must be one e-mail address such as sales@example.com, got "Sales <sales@acme.example>"',
    );
    for (const wrong of ['call us', '12', '+49 30 5557 2100 ext', 'tel:+4930555']) {
      expect(() => loadWorkerConfig({ ...secret, CONTACT_PHONE: wrong }), wrong).to.throw(
        `CONTACT_PHONE must be a phone number such as +49 30 5557 2100, got "${wrong}"`,
      );
    }
  });

  describe('DKIM', () => {
    const secret = { BOOKING_LINK_SECRET: 's'.repeat(32) };
    const pem = generateKeyPairSync('ec', { namedCurve: 'prime256v1' })
      .privateKey.export({ type: 'pkcs8', format: 'pem' })
      .toString();
    const rsaPem = generateKeyPairSync('rsa', { modulusLength: 1024 })
      .privateKey.export({ type: 'pkcs8', format: 'pem' })
      .toString();
    const complete = {
      ...secret,
      DKIM_DOMAIN: 'converge.example.com',
      DKIM_SELECTOR: 'mail2026',
      DKIM_PRIVATE_KEY: rsaPem,
    };

    it('is off when none of its settings is given', () => {
      expect(loadWorkerConfig(secret).dkim).to.equal(undefined);
    });

    it('signs with the three settings, the key as PEM or on one line with \\n for its line breaks', () => {
      expect(loadWorkerConfig(complete).dkim).to.deep.equal({
        domainName: 'converge.example.com',
        keySelector: 'mail2026',
        privateKey: rsaPem.trim(),
      });
      expect(
        loadWorkerConfig({ ...complete, DKIM_PRIVATE_KEY: rsaPem.trim().replace(/\n/g, '\\n') }).dkim?.privateKey,
      ).to.equal(rsaPem.trim());
    });

    it('reads the key from DKIM_PRIVATE_KEY_FILE instead, and refuses both at once', () => {
      const folder = mkdtempSync(path.join(tmpdir(), 'dkim-'));
      try {
        const file = path.join(folder, 'private.pem');
        writeFileSync(file, pem);
        const { DKIM_PRIVATE_KEY: _inline, ...withoutKey } = complete;
        expect(loadWorkerConfig({ ...withoutKey, DKIM_PRIVATE_KEY_FILE: file }).dkim?.privateKey).to.equal(pem);
        expect(() => loadWorkerConfig({ ...complete, DKIM_PRIVATE_KEY_FILE: file })).to.throw(
          'DKIM_PRIVATE_KEY and DKIM_PRIVATE_KEY_FILE are both set: set one of them',
        );
        expect(() =>
          loadWorkerConfig({ ...withoutKey, DKIM_PRIVATE_KEY_FILE: path.join(folder, 'missing.pem') }),
        ).to.throw(/^DKIM_PRIVATE_KEY_FILE cannot be read \(ENOENT\)/);
      } finally {
        rmSync(folder, { recursive: true, force: true });
      }
    });

    it('stops start-up on a partial set, naming what is missing', () => {
      const { DKIM_DOMAIN: _domain, ...noDomain } = complete;
      const { DKIM_SELECTOR: _selector, ...noSelector } = complete;
      const { DKIM_PRIVATE_KEY: _key, ...noKey } = complete;
      expect(() => loadWorkerConfig(noDomain)).to.throw(/not set: DKIM_DOMAIN$/);
      expect(() => loadWorkerConfig(noSelector)).to.throw(/not set: DKIM_SELECTOR$/);
      expect(() => loadWorkerConfig(noKey)).to.throw(/not set: DKIM_PRIVATE_KEY \(or DKIM_PRIVATE_KEY_FILE\)$/);
      expect(() => loadWorkerConfig({ ...secret, DKIM_SELECTOR: 'mail2026' })).to.throw(
        /not set: DKIM_DOMAIN, DKIM_PRIVATE_KEY \(or DKIM_PRIVATE_KEY_FILE\)$/,
      );
    });

    it('stops start-up on a key that is no private key, or a domain or selector that is no DNS name', () => {
      expect(() => loadWorkerConfig({ ...complete, DKIM_PRIVATE_KEY: 'not a key' })).to.throw(
        /^DKIM_PRIVATE_KEY must be a private key in PEM/,
      );
      expect(() => loadWorkerConfig({ ...complete, DKIM_DOMAIN: 'converge.example.com; s=evil' })).to.throw(
        /^DKIM_DOMAIN must be a domain name/,
      );
      expect(() => loadWorkerConfig({ ...complete, DKIM_SELECTOR: 'mail 2026' })).to.throw(
        /^DKIM_SELECTOR must be a DNS label/,
      );
    });
  });
});
