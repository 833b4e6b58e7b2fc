/**
 * Answers remembered per key, at most `max` of them (the oldest forgotten first). Request data
 * repeats (a browser's Accept and Cookie headers, the same parameter names), so per-request work
 * on it is done once; the bound keeps a client that invents endless values from growing it.
 *
 * @example
 * const verdicts = new BoundedMemo<string, Verdict>(200);
 * const verdict = verdicts.get(accept, judgeAccept);
 */
export class BoundedMemo<K, V> {
  readonly #answers = new Map<K, V>();

  constructor(private readonly max: number) {}

  /** The answer for `key`, from `compute(key)` the first time (an `undefined` answer too). */
  get(key: K, compute: (key: K) => V): V {
    const known = this.#answers.get(key);
    if (known !== undefined || this.#answers.has(key)) return known as V;
    const answer = compute(key);
    if (this.#answers.size >= this.max) {
      this.#answers.delete(this.#answers.keys().next().value as K);
    }
    this.#answers.set(key, answer);
    return answer;
  }
}
