const C1 = 0xcc9e2d51;
const C2 = 0x1b873593;

function rotl32(x: number, r: number): number {
  return (x << r) | (x >>> (32 - r));
}

/**
 * MurmurHash3 x86_32 over bytes, as an unsigned 32-bit integer. Written here rather than imported because
 * its output is baked into every stored hashing-embedder vector: it must never change under us.
 */
export function murmur3x86_32(bytes: Uint8Array, seed = 0): number {
  const length = bytes.length;
  const blocks = length >>> 2;
  let h = seed | 0;
  for (let i = 0; i < blocks; i++) {
    const j = i << 2;
    let k = bytes[j] | (bytes[j + 1] << 8) | (bytes[j + 2] << 16) | (bytes[j + 3] << 24);
    k = Math.imul(k, C1);
    k = rotl32(k, 15);
    k = Math.imul(k, C2);
    h ^= k;
    h = rotl32(h, 13);
    h = (Math.imul(h, 5) + 0xe6546b64) | 0;
  }
  const tail = blocks << 2;
  const rest = length & 3;
  if (rest > 0) {
    let k = 0;
    if (rest === 3) k ^= bytes[tail + 2] << 16;
    if (rest >= 2) k ^= bytes[tail + 1] << 8;
    k ^= bytes[tail];
    k = Math.imul(k, C1);
    k = rotl32(k, 15);
    k = Math.imul(k, C2);
    h ^= k;
  }
  h ^= length;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}
