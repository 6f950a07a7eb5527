/**
 * Answers kept by key, at most `limit` of them; when one more comes, the first kept goes. For work that depends on a
 * few values only (a zone and an instant, a day, a domain) and is asked for again and again, so memory stays bounded
 * whatever callers send.
 */
export class KeptAnswers<V> {
  private readonly answers = new Map<string, V>();

  constructor(readonly limit: number) {}

  get size(): number {
    return this.answers.size;
  }

  /** The answer kept for `key`, or `work()`'s, kept from now on. */
  of(key: string, work: () => V): V {
    if (this.answers.has(key)) return this.answers.get(key) as V;
    const answer = work();
    if (this.answers.size >= this.limit) this.answers.delete(this.answers.keys().next().value as string);
    this.answers.set(key, answer);
    return answer;
  }
}
