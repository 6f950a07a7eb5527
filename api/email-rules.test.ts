import { expect } from 'chai';
import {
  DISPOSABLE_EMAIL_MESSAGE,
  EMAIL_REQUIRED_MESSAGE,
  EMAIL_SYNTAX_MESSAGE,
  INVISIBLE_EMAIL_MESSAGE,
  PERSONAL_EMAIL_MESSAGE,
  mistypedPersonalMessage,
  unknownEndingMessage,
} from '../domain/email-messages.js';
import {
  DOMAIN_FACTS_KEPT,
  PERSONAL_EMAIL_DOMAINS,
  canonicalRecipient,
  checkEmail,
  domainFactsKept,
  emailProblem,
  isDomainEnding,
  isEmailSyntaxValid,
  suggestEmail,
} from './email-rules.js';

describe('e-mail rules', () => {
  it('blocks exactly the 15 personal providers, case-insensitively and after trimming', () => {
    expect(PERSONAL_EMAIL_DOMAINS).to.have.length(15);
    for (const domain of PERSONAL_EMAIL_DOMAINS) {
      expect(emailProblem(`jane@${domain}`), domain).to.equal(PERSONAL_EMAIL_MESSAGE);
      expect(emailProblem(`  Jane.Doe@${domain.toUpperCase()}  `), domain).to.equal(PERSONAL_EMAIL_MESSAGE);
    }
    expect(emailProblem('jane@gmail.company.com')).to.equal(null);
    expect(emailProblem('jane@acme.com')).to.equal(null);
  });

  it('accepts company addresses and refuses malformed ones', () => {
    for (const good of [
      'jane@acme.com',
      'jane.doe+demo@eu.acme-corp.co.uk',
      "o'neil@acme.io",
      'ivan@xn--80aswg.xn--p1ai',
      'juergen@müller.de',
    ]) {
      expect(isEmailSyntaxValid(good), good).to.equal(true);
    }
    for (const bad of [
      'jane',
      'jane@',
      '@acme.com',
      'jane@acme',
      'jane doe@acme.com',
      'jane@@acme.com',
      'jane..doe@acme.com',
      'jane@acme.c0m',
      `${'a'.repeat(65)}@acme.com`,
    ]) {
      expect(emailProblem(bad), bad).to.equal(EMAIL_SYNTAX_MESSAGE);
    }
    expect(emailProblem('   ')).to.equal(EMAIL_REQUIRED_MESSAGE);
  });

  it('refuses domains that only look like what DNS reads (fullwidth letters, soft hyphens, ideographic dots) and control characters', () => {
    for (const disguised of [
      'x@ｇｍａｉｌ.com',
      'x@gmail。com',
      'x@ｍａｉｌｉｎａｔｏｒ.com',
      'x@acme.\rco.uk',
      'x@acme\t.com',
      'x@acme\ud83d.com',
    ]) {
      expect(emailProblem(disguised), JSON.stringify(disguised)).to.equal(EMAIL_SYNTAX_MESSAGE);
    }
    // A soft hyphen is a format (Cf) character, invisible like a zero-width space: refused as one.
    expect(emailProblem('x@gmail\u00ad.com')).to.equal(INVISIBLE_EMAIL_MESSAGE);
    expect(emailProblem('juergen@MÜLLER.de')).to.equal(null);
    expect(emailProblem('juergen@xn--mller-kva.de')).to.equal(null);
  });

  it('refuses disposable domains and their subdomains', () => {
    expect(emailProblem('jane@mailinator.com')).to.equal(DISPOSABLE_EMAIL_MESSAGE);
    expect(emailProblem('jane@inbox.mailinator.com')).to.equal(DISPOSABLE_EMAIL_MESSAGE);
    expect(checkEmail('jane@mailinator.com')).to.include({ isValid: false, isDisposable: true, isFreeProvider: false });
  });

  it('flags role addresses but accepts them', () => {
    expect(checkEmail('sales@acme.com')).to.deep.equal({
      isValid: true,
      isDisposable: false,
      isFreeProvider: false,
      isRoleEmail: true,
    });
    expect(checkEmail('info+emea@acme.com').isRoleEmail).to.equal(true);
    expect(checkEmail('jane@acme.com').isRoleEmail).to.equal(false);
  });

  it('says a company address is needed for a slip of a personal provider, rather than suggest an address it refuses', () => {
    for (const [email, provider] of [
      ['jane@gmial.com', 'gmail.com'],
      ['jane@outlok.com', 'outlook.com'],
      ['jane@yaho.com', 'yahoo.com'],
      ['jane@gmail.con', 'gmail.com'],
    ]) {
      const result = checkEmail(email!);
      expect(result, email)
        .to.include({ isValid: false, reason: mistypedPersonalMessage(provider!) })
        .and.not.have.property('suggestion');
      expect(emailProblem(email!), email).to.equal(mistypedPersonalMessage(provider!));
    }
    expect(mistypedPersonalMessage('gmail.com')).to.contain('company email address');
    expect(checkEmail('jane@acme.com')).to.not.have.property('suggestion');
  });

  it('refuses an ending that is no top-level domain (.con, .cmo, .ocm …), suggesting the common ending it is a slip of', () => {
    const endings: [string, string][] = [
      ['con', 'com'],
      ['cmo', 'com'],
      ['ocm', 'com'],
      ['cpm', 'com'],
      ['vom', 'com'],
      ['comm', 'com'],
      ['nte', 'net'],
      ['ogr', 'org'],
      ['orgg', 'org'],
    ];
    for (const [typed, meant] of endings) {
      expect(checkEmail(`jane@acme-industries.${typed}`), typed).to.include({
        isValid: false,
        reason: unknownEndingMessage(typed),
        suggestion: `jane@acme-industries.${meant}`,
      });
    }
    // Made up, and a slip of nothing: refused with no suggestion.
    expect(checkEmail('ana@contoso.logisticz'))
      .to.include({ isValid: false, reason: unknownEndingMessage('logisticz') })
      .and.not.have.property('suggestion');
    // IANA's endings in Unicode and in punycode, and the endings reserved for examples and tests, are endings.
    for (const email of ['ivan@пример.рф', 'ivan@xn--e1afmkfd.xn--p1ai', 'ana@acme.example', 'ana@acme.test']) {
      expect(emailProblem(email), email).to.equal(null);
    }
    // Real top-level domains are left alone, however close to a common one.
    for (const email of [
      'jane@acme.co',
      'jane@acme.de',
      'jane@acme.ie',
      'jane@acme.net',
      'jane@acme.com.au',
      'jane@acme.org.uk',
    ]) {
      expect(checkEmail(email), email).to.not.have.property('suggestion');
    }
  });

  it('reports a personal provider as invalid and free', () => {
    expect(checkEmail('Jane@GMAIL.com')).to.deep.equal({
      isValid: false,
      isDisposable: false,
      isFreeProvider: true,
      isRoleEmail: false,
      reason: PERSONAL_EMAIL_MESSAGE,
    });
  });
});

describe('typo suggestions', () => {
  it('never rewrites a plausible company domain', () => {
    for (const email of [
      'jane@acme.com',
      'sales@acme.com',
      'jane@mail.acme.com',
      'jane@globex.io',
      'jane@hotel.com',
      'jane@gmx.de',
      'ada@ibm.com',
      'ada@hp.com',
      'ada@ge.com',
      'ada@sap.com',
      'ada@gmx.net',
      'ada@yopmail.fr',
      'ada@protonmail.ch',
    ]) {
      expect(checkEmail(email), email).to.not.have.property('suggestion');
    }
  });

  it('suggests for slips of one or two keys', () => {
    expect(checkEmail('jane@siemens.con').suggestion).to.equal('jane@siemens.com');
    expect(checkEmail('jane@hotmial.com')).to.include({ reason: mistypedPersonalMessage('hotmail.com') });
  });

  describe('worked out once per domain', () => {
    it('gives each address at a domain already seen its own answer: suggestions carry their own local part', () => {
      expect(suggestEmail('jane@hotmial.com')).to.equal('jane@hotmail.com');
      expect(suggestEmail('Bob.Smith@hotmial.com')).to.equal('bob.smith@hotmail.com');
      expect(suggestEmail('@hotmial.com')).to.equal(undefined);
      expect(checkEmail('jane@acme-industries.con')).to.include({ suggestion: 'jane@acme-industries.com' });
      expect(checkEmail('bob@acme-industries.con')).to.include({ suggestion: 'bob@acme-industries.com' });
      expect(checkEmail('sales@acme-industries.con')).to.include({
        isRoleEmail: true,
        suggestion: 'sales@acme-industries.com',
      });
      expect(checkEmail('jane..doe@acme-industries.con')).to.include({ isValid: false, reason: EMAIL_SYNTAX_MESSAGE });
    });

    it('judges a domain by how it was typed, whichever form was asked about first', () => {
      expect(emailProblem('juergen@müller.de')).to.equal(null);
      expect(emailProblem('x@ｍüller.de')).to.equal(EMAIL_SYNTAX_MESSAGE);
      expect(emailProblem('juergen@MÜLLER.de')).to.equal(null);
      expect(emailProblem('jane@GMAIL.COM')).to.equal(PERSONAL_EMAIL_MESSAGE);
      expect(emailProblem('jane@Mailinator.com')).to.equal(DISPOSABLE_EMAIL_MESSAGE);
    });

    it('keeps at most DOMAIN_FACTS_KEPT domains, and answers the same for a domain it has let go', () => {
      const first = checkEmail('jane@gmial.com');
      for (let i = 0; i < DOMAIN_FACTS_KEPT + 10; i++)
        expect(checkEmail(`jane@company-${i}.com`).isValid).to.equal(true);
      expect(domainFactsKept()).to.be.at.most(DOMAIN_FACTS_KEPT);
      expect(checkEmail('jane@gmial.com')).to.deep.equal(first);
    });
  });
});

describe('canonical recipients', () => {
  it('counts an address in lower case, without its +tag, at its domain in punycode', () => {
    expect(canonicalRecipient(' Victim+News@DÙP-Test.com ')).to.deep.equal({
      address: 'victim@xn--dp-test-y1a.com',
      domain: 'xn--dp-test-y1a.com',
    });
    expect(canonicalRecipient('victim@XN--DP-TEST-Y1A.COM')).to.deep.equal({
      address: 'victim@xn--dp-test-y1a.com',
      domain: 'xn--dp-test-y1a.com',
    });
    expect(canonicalRecipient('victim+1+2@acme.com').address).to.equal('victim@acme.com');
    // A + that starts the local part has no mailbox before it: it stays.
    expect(canonicalRecipient('+ops@acme.com').address).to.equal('+ops@acme.com');
  });
});

describe('domain endings', () => {
  it("knows IANA's top-level domains in both forms and the reserved ones, not made-up words", () => {
    for (const ending of ['com', 'COM', 'microsoft', 'рф', 'xn--p1ai', 'example', 'test', 'localhost'])
      expect(isDomainEnding(ending), ending).to.equal(true);
    for (const ending of ['who', 'r', 'smith', 'con', 'xn--zzzz'])
      expect(isDomainEnding(ending), ending).to.equal(false);
  });
});
