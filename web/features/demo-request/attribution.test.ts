import { expect } from 'chai';
import { attributionOf } from '../../../domain/attribution.js';
import { rememberAttribution, rememberedAttribution } from './attribution.js';

/** Session storage as the browser offers it, in memory. */
class MemoryStorage implements Storage {
  private readonly items = new Map<string, string>();
  get length(): number {
    return this.items.size;
  }
  clear(): void {
    this.items.clear();
  }
  getItem(key: string): string | null {
    return this.items.get(key) ?? null;
  }
  key(index: number): string | null {
    return [...this.items.keys()][index] ?? null;
  }
  removeItem(key: string): void {
    this.items.delete(key);
  }
  setItem(key: string, value: string): void {
    this.items.set(key, value);
  }
}

const landing = new URL(
  'https://converge.example.com/?utm_source=newsletter&utm_medium=email&utm_campaign=q4&utm_term=&gclid=x',
);

describe('attribution of a visit', () => {
  it('takes the UTM parameters and a referrer from another site, leaving out empty and unknown ones', () => {
    expect(attributionOf(landing, 'https://news.example.org/post')).to.deep.equal({
      utm_source: 'newsletter',
      utm_medium: 'email',
      utm_campaign: 'q4',
      referrer: 'https://news.example.org/post',
    });
    expect(
      attributionOf(landing, 'https://converge.example.com/legal/privacy'),
      'a page of this site',
    ).to.not.have.property('referrer');
    expect(attributionOf(new URL('https://converge.example.com/'), 'not a url')).to.deep.equal({});
  });

  it('cuts each value to 300 characters', () => {
    const long = new URL(`https://converge.example.com/?utm_content=${'x'.repeat(400)}`);
    expect(attributionOf(long, '').utm_content).to.have.length(300);
  });

  it('keeps the first touch of the visit, not what a later page says', () => {
    const storage = new MemoryStorage();
    expect(rememberedAttribution(storage)).to.equal(undefined);
    rememberAttribution(storage, landing, 'https://news.example.org/post');
    rememberAttribution(storage, new URL('https://converge.example.com/?utm_source=other'), '');
    expect(rememberedAttribution(storage)).to.deep.include({
      utm_source: 'newsletter',
      referrer: 'https://news.example.org/post',
    });
  });

  it('has nothing to send for a visit with no source, or when storage holds something else', () => {
    const storage = new MemoryStorage();
    rememberAttribution(storage, new URL('https://converge.example.com/'), '');
    expect(rememberedAttribution(storage)).to.equal(undefined);
    storage.setItem('converge:attribution', '{"utm_source": 7, "evil": "x"}');
    expect(rememberedAttribution(storage)).to.equal(undefined);
  });
});
