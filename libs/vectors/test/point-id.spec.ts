import { pointId, uuidV5 } from '../src';

describe('uuidV5', () => {
  it('matches the RFC 9562 example (DNS namespace, www.example.com)', () => {
    expect(uuidV5('www.example.com', '6ba7b810-9dad-11d1-80b4-00c04fd430c8')).toBe('2ed6657d-e927-568b-95e1-2665a8aea6a2');
  });
});

describe('pointId', () => {
  it('is a deterministic version-5 UUID of the key', () => {
    const id = pointId('evidence:tenant-1:frag-42');
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(pointId('evidence:tenant-1:frag-42')).toBe(id);
    expect(pointId('evidence:tenant-1:frag-43')).not.toBe(id);
    expect(pointId('')).not.toBe(pointId(' '));
  });

  it('never changes (stored points are addressed by it)', () => {
    expect(pointId('claim:t:1')).toBe(GOLDEN);
  });
});

const GOLDEN = '3588e50c-47ff-5b25-97df-4fc888a9550b';
