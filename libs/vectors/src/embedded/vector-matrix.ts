/**
 * Unit vectors stored row by row in one growable Float32Array: a scan or a graph walk touches contiguous
 * memory instead of chasing one object per point. Rows are append-only; deletion is the owner's business.
 */
export class VectorMatrix {
  data: Float32Array;
  rows = 0;

  constructor(
    readonly dimension: number,
    initialRows = 256,
  ) {
    this.data = new Float32Array(Math.max(1, initialRows) * dimension);
  }

  get capacity(): number {
    return this.data.length / this.dimension;
  }

  append(vector: Float32Array): number {
    if (vector.length !== this.dimension) throw new RangeError(`row of ${vector.length} floats in a ${this.dimension}-wide matrix`);
    if (this.rows === this.capacity) {
      const grown = new Float32Array(this.data.length * 2);
      grown.set(this.data);
      this.data = grown;
    }
    const row = this.rows++;
    this.data.set(vector, row * this.dimension);
    return row;
  }

  /** A copy of one row (a view would silently go stale when the matrix grows). */
  row(row: number): Float32Array {
    return this.data.slice(row * this.dimension, (row + 1) * this.dimension);
  }

  rowEquals(row: number, vector: Float32Array): boolean {
    const offset = row * this.dimension;
    for (let i = 0; i < this.dimension; i++) if (this.data[offset + i] !== vector[i]) return false;
    return true;
  }
}
