/**
 * A binary heap of (id, score) pairs kept in parallel typed arrays (no object per entry: HNSW pushes
 * millions of them). Ids are int32. `max` pops the highest score first, `min` the lowest; internally both are max-heaps
 * over a signed key so there is one sift implementation.
 */
export class ScoreHeap {
  private ids = new Int32Array(64);
  private keys = new Float64Array(64);
  private count = 0;
  private readonly sign: 1 | -1;

  constructor(order: 'min' | 'max') {
    this.sign = order === 'max' ? 1 : -1;
  }

  get size(): number {
    return this.count;
  }

  clear(): void {
    this.count = 0;
  }

  peekId(): number {
    if (this.count === 0) throw new RangeError('peek on an empty heap');
    return this.ids[0];
  }

  peekScore(): number {
    if (this.count === 0) throw new RangeError('peek on an empty heap');
    return this.keys[0] * this.sign;
  }

  push(id: number, score: number): void {
    if (this.count === this.ids.length) this.grow();
    const ids = this.ids;
    const keys = this.keys;
    const key = score * this.sign;
    let i = this.count++;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (keys[parent] >= key) break;
      ids[i] = ids[parent];
      keys[i] = keys[parent];
      i = parent;
    }
    ids[i] = id;
    keys[i] = key;
  }

  /** Removes the top entry and returns its id. */
  pop(): number {
    const ids = this.ids;
    const keys = this.keys;
    if (this.count === 0) throw new RangeError('pop on an empty heap');
    const top = ids[0];
    const n = --this.count;
    const lastId = ids[n];
    const lastKey = keys[n];
    if (n > 0) {
      let i = 0;
      for (;;) {
        const left = 2 * i + 1;
        if (left >= n) break;
        const right = left + 1;
        const child = right < n && keys[right] > keys[left] ? right : left;
        if (keys[child] <= lastKey) break;
        ids[i] = ids[child];
        keys[i] = keys[child];
        i = child;
      }
      ids[i] = lastId;
      keys[i] = lastKey;
    }
    return top;
  }

  /** Empties the heap into [ids, scores] ordered best first (highest score first, whatever the order). */
  drainDescending(): { ids: number[]; scores: number[] } {
    const n = this.count;
    const ids = new Array<number>(n);
    const scores = new Array<number>(n);
    if (this.sign === 1) {
      for (let i = 0; i < n; i++) {
        scores[i] = this.peekScore();
        ids[i] = this.pop();
      }
    } else {
      for (let i = n - 1; i >= 0; i--) {
        scores[i] = this.peekScore();
        ids[i] = this.pop();
      }
    }
    return { ids, scores };
  }

  private grow(): void {
    const ids = new Int32Array(this.ids.length * 2);
    ids.set(this.ids);
    this.ids = ids;
    const keys = new Float64Array(this.keys.length * 2);
    keys.set(this.keys);
    this.keys = keys;
  }
}
