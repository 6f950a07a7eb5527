import { expect } from 'chai';
import { KeptAnswers } from './kept-answers.js';

describe('kept answers', () => {
  it('works an answer out once per key, null and undefined answers included', () => {
    const kept = new KeptAnswers<string | null | undefined>(10);
    let calls = 0;
    const work = (answer: string | null | undefined) => () => {
      calls += 1;
      return answer;
    };
    expect(kept.of('a', work('A'))).to.equal('A');
    expect(kept.of('a', work('other'))).to.equal('A');
    expect(kept.of('n', work(null))).to.equal(null);
    expect(kept.of('n', work('other'))).to.equal(null);
    expect(kept.of('u', work(undefined))).to.equal(undefined);
    expect(kept.of('u', work('other'))).to.equal(undefined);
    expect(calls).to.equal(3);
  });

  it('keeps at most its limit, the first kept going first, and works a dropped key out again', () => {
    const kept = new KeptAnswers<number>(2);
    let calls = 0;
    const work = () => ++calls;
    kept.of('a', work);
    kept.of('b', work);
    kept.of('c', work);
    expect(kept.size).to.equal(2);
    expect(kept.of('b', work), 'b still kept').to.equal(2);
    expect(kept.of('a', work), 'a worked out again').to.equal(4);
    expect(kept.of('c', work), 'c kept while b went').to.equal(3);
    expect(kept.size).to.equal(2);
  });
});
