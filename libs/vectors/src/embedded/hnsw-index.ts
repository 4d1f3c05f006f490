import { z } from 'zod';
import { dotAt } from '../vector-math';
import { ScoreHeap } from './score-heap';
import type { VectorMatrix } from './vector-matrix';

// A module-local binding: compiled to CommonJS, every use of an imported name is a property read on the
// module object, which costs measurably in the innermost loop.
const dot = dotAt;

export const HnswParams = z
  .object({
    /** Links per node on the upper layers (twice that on layer 0). More: better recall, more memory and build time. */
    M: z.number().int().min(2).max(128).default(16),
    /** Candidate list size while inserting. */
    efConstruction: z.number().int().min(8).max(4096).default(128),
    /** Candidate list size while searching (raised to the result limit when that is larger). */
    efSearch: z.number().int().min(1).max(4096).default(200),
    /** Seed of the level generator: the same inserts in the same order build the same graph. */
    seed: z.number().int().min(0).max(0xffffffff).default(0x5eed),
  })
  .strict();
export type HnswParams = z.output<typeof HnswParams>;
export type HnswParamsInput = z.input<typeof HnswParams>;

export interface ScoredNode {
  node: number;
  score: number;
}

const MAX_LEVEL = 16;

/** mulberry32: tiny, fast, seedable; quality is ample for drawing node levels. */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Hierarchical Navigable Small World graph (Malkov & Yashunin, 2016) over the unit rows of a VectorMatrix,
 * scoring by dot product (= cosine for unit vectors). Node ids are matrix rows. Nodes are never removed:
 * the owner excludes dead rows through the `accept` predicate at search time and rebuilds the graph when
 * too many are dead, as hnswlib does with markDelete.
 *
 * Single-threaded and synchronous; the caller decides when to yield to the event loop.
 */
export class HnswIndex {
  readonly params: HnswParams;
  private readonly maxM: number;
  private readonly maxM0: number;
  private readonly levelMult: number;
  private readonly random: () => number;
  /** Level of each node, -1 when the row is not in the graph. */
  private levels = new Int8Array(0);
  /** Layer 0 links: per node a block of [count, n1 … nMaxM0]. */
  private links0 = new Int32Array(0);
  /** Upper layer links: per node, levels 1..L as consecutive blocks of [count, n1 … nMaxM]. */
  private upper: (Int32Array | undefined)[] = [];
  private visited = new Uint32Array(0);
  private visitEpoch = 0;
  private entry = -1;
  private topLevel = -1;
  private nodes = 0;
  // Reused between calls: a search allocates no heap of its own.
  private readonly candidates = new ScoreHeap('max');
  private readonly results = new ScoreHeap('min');

  constructor(
    private readonly matrix: VectorMatrix,
    params: HnswParamsInput = {},
  ) {
    this.params = HnswParams.parse(params);
    this.maxM = this.params.M;
    this.maxM0 = this.params.M * 2;
    this.levelMult = 1 / Math.log(this.params.M);
    this.random = mulberry32(this.params.seed);
  }

  /** Number of rows in the graph (dead ones included). */
  get size(): number {
    return this.nodes;
  }

  has(node: number): boolean {
    return node < this.levels.length && this.levels[node] >= 0;
  }

  insert(node: number): void {
    if (!Number.isInteger(node) || node < 0 || node >= this.matrix.rows) throw new RangeError(`row ${node} is not in the matrix`);
    this.ensureCapacity(node + 1);
    if (this.levels[node] >= 0) throw new RangeError(`row ${node} is already in the graph`);
    const level = this.randomLevel();
    this.levels[node] = level;
    this.links0[node * (this.maxM0 + 1)] = 0;
    this.upper[node] = level > 0 ? new Int32Array(level * (this.maxM + 1)) : undefined;
    this.nodes++;
    if (this.entry < 0) {
      this.entry = node;
      this.topLevel = level;
      return;
    }
    const data = this.matrix.data;
    const dim = this.matrix.dimension;
    const qOff = node * dim;
    let ep = this.entry;
    let epScore = dot(data, qOff, data, ep * dim, dim);
    for (let l = this.topLevel; l > level; l--) {
      const best = this.greedy(data, qOff, ep, epScore, l);
      ep = best.node;
      epScore = best.score;
    }
    for (let l = Math.min(level, this.topLevel); l >= 0; l--) {
      this.searchLayer(data, qOff, ep, epScore, this.params.efConstruction, l, undefined);
      const found = this.results.drainDescending();
      const chosen = this.selectNeighbours(found.ids, found.scores, this.maxM);
      this.setLinks(node, l, chosen);
      for (const neighbour of chosen) this.linkBack(neighbour, node, l);
      ep = found.ids[0];
      epScore = found.scores[0];
    }
    if (level > this.topLevel) {
      this.entry = node;
      this.topLevel = level;
    }
  }

  /**
   * The `k` best accepted nodes for a unit query, best first. `accept` filters results only: the walk still
   * passes through rejected nodes, so a filter does not cut the graph into unreachable islands. With a very
   * selective filter that walk can cover most of the graph — callers switch to an exact scan before that.
   */
  search(query: Float32Array, k: number, ef: number, accept?: (node: number) => boolean): ScoredNode[] {
    if (this.entry < 0 || k <= 0) return [];
    const data = this.matrix.data;
    const dim = this.matrix.dimension;
    if (query.length !== dim) throw new RangeError(`query of ${query.length} floats for a ${dim}-dimensional graph`);
    let ep = this.entry;
    let epScore = dot(query, 0, data, ep * dim, dim);
    for (let l = this.topLevel; l > 0; l--) {
      const best = this.greedy(query, 0, ep, epScore, l);
      ep = best.node;
      epScore = best.score;
    }
    this.searchLayer(query, 0, ep, epScore, Math.max(ef, k), 0, accept);
    const found = this.results.drainDescending();
    const out: ScoredNode[] = [];
    for (let i = 0; i < found.ids.length && i < k; i++) out.push({ node: found.ids[i], score: found.scores[i] });
    return out;
  }

  private randomLevel(): number {
    // 1 - random() is in (0, 1], so the log is finite.
    const level = Math.floor(-Math.log(1 - this.random()) * this.levelMult);
    return Math.min(level, MAX_LEVEL);
  }

  private ensureCapacity(rows: number): void {
    if (rows <= this.levels.length) return;
    const capacity = Math.max(rows, this.levels.length * 2, 256);
    const levels = new Int8Array(capacity).fill(-1);
    levels.set(this.levels);
    this.levels = levels;
    const links0 = new Int32Array(capacity * (this.maxM0 + 1));
    links0.set(this.links0);
    this.links0 = links0;
    const visited = new Uint32Array(capacity);
    visited.set(this.visited);
    this.visited = visited;
    this.upper.length = capacity;
  }

  /** The links block of `node` on `level`: the array and the offset of its count slot. */
  private block(node: number, level: number): { links: Int32Array; offset: number } {
    if (level === 0) return { links: this.links0, offset: node * (this.maxM0 + 1) };
    return { links: this.upperLinks(node), offset: (level - 1) * (this.maxM + 1) };
  }

  private upperLinks(node: number): Int32Array {
    const links = this.upper[node];
    // Only reachable through a bug: a node is linked on a layer only if it was drawn that high.
    if (links === undefined) throw new RangeError(`node ${node} has no links above layer 0`);
    return links;
  }

  /** Hill-climbs on one layer from `ep` to a local best for the query at `qOff` in `q`. */
  private greedy(q: Float32Array, qOff: number, ep: number, epScore: number, level: number): ScoredNode {
    const data = this.matrix.data;
    const dim = this.matrix.dimension;
    let node = ep;
    let score = epScore;
    let changed = true;
    while (changed) {
      changed = false;
      const { links, offset } = this.block(node, level);
      const count = links[offset];
      for (let i = 1; i <= count; i++) {
        const n = links[offset + i];
        const s = dot(q, qOff, data, n * dim, dim);
        if (s > score) {
          score = s;
          node = n;
          changed = true;
        }
      }
    }
    return { node, score };
  }

  /** Best-first search of one layer; leaves up to `ef` accepted nodes in `this.results`. */
  private searchLayer(
    q: Float32Array,
    qOff: number,
    ep: number,
    epScore: number,
    ef: number,
    level: number,
    accept: ((node: number) => boolean) | undefined,
  ): void {
    const data = this.matrix.data;
    const dim = this.matrix.dimension;
    const visited = this.visited;
    const candidates = this.candidates;
    const results = this.results;
    candidates.clear();
    results.clear();
    if (++this.visitEpoch === 0xffffffff) {
      visited.fill(0);
      this.visitEpoch = 1;
    }
    const epoch = this.visitEpoch;
    visited[ep] = epoch;
    candidates.push(ep, epScore);
    if (accept === undefined || accept(ep)) results.push(ep, epScore);
    while (candidates.size > 0) {
      if (results.size >= ef && candidates.peekScore() < results.peekScore()) break;
      const current = candidates.pop();
      const links = level === 0 ? this.links0 : this.upperLinks(current);
      const offset = level === 0 ? current * (this.maxM0 + 1) : (level - 1) * (this.maxM + 1);
      const count = links[offset];
      for (let i = 1; i <= count; i++) {
        const n = links[offset + i];
        if (visited[n] === epoch) continue;
        visited[n] = epoch;
        const s = dot(q, qOff, data, n * dim, dim);
        if (results.size < ef || s > results.peekScore()) {
          candidates.push(n, s);
          if (accept === undefined || accept(n)) {
            results.push(n, s);
            if (results.size > ef) results.pop();
          }
        }
      }
    }
  }

  /**
   * The paper's neighbour heuristic (its Algorithm 4, as hnswlib implements it): walk candidates best first
   * and keep one only if it is closer to the base than to every neighbour already kept. Links then point in
   * diverse directions, which keeps clustered data navigable.
   */
  private selectNeighbours(ids: number[], scores: number[], max: number): number[] {
    if (ids.length <= max) return ids.slice();
    const data = this.matrix.data;
    const dim = this.matrix.dimension;
    const kept: number[] = [];
    for (let i = 0; i < ids.length && kept.length < max; i++) {
      const candidate = ids[i];
      const toBase = scores[i];
      let good = true;
      for (const k of kept) {
        if (dot(data, candidate * dim, data, k * dim, dim) > toBase) {
          good = false;
          break;
        }
      }
      if (good) kept.push(candidate);
    }
    return kept;
  }

  private setLinks(node: number, level: number, neighbours: number[]): void {
    const { links, offset } = this.block(node, level);
    links[offset] = neighbours.length;
    for (let i = 0; i < neighbours.length; i++) links[offset + 1 + i] = neighbours[i];
  }

  /** Adds `node` to `target`'s links on `level`, re-selecting with the heuristic when the list is full. */
  private linkBack(target: number, node: number, level: number): void {
    const max = level === 0 ? this.maxM0 : this.maxM;
    const { links, offset } = this.block(target, level);
    const count = links[offset];
    if (count < max) {
      links[offset + 1 + count] = node;
      links[offset] = count + 1;
      return;
    }
    const data = this.matrix.data;
    const dim = this.matrix.dimension;
    const tOff = target * dim;
    const pool: ScoredNode[] = [{ node, score: dot(data, tOff, data, node * dim, dim) }];
    for (let i = 1; i <= count; i++) {
      const n = links[offset + i];
      pool.push({ node: n, score: dot(data, tOff, data, n * dim, dim) });
    }
    pool.sort((a, b) => b.score - a.score);
    const chosen = this.selectNeighbours(
      pool.map((p) => p.node),
      pool.map((p) => p.score),
      max,
    );
    this.setLinks(target, level, chosen);
  }
}
