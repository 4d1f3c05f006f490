import { gzipSync } from 'node:zlib';

/** A minimal ustar writer for tests: builds archives the reader must accept or refuse (links, `..`, absolute names). */
export interface TarEntry {
  name: string;
  data?: string;
  /** '0' file (default), '5' directory, '2' symlink. */
  type?: '0' | '5' | '2';
}

function header(entry: TarEntry, size: number): Buffer {
  const h = Buffer.alloc(512);
  h.write(entry.name, 0, 100, 'utf8');
  h.write('0000644\0', 100, 'ascii');
  h.write('0000000\0', 108, 'ascii');
  h.write('0000000\0', 116, 'ascii');
  h.write(`${size.toString(8).padStart(11, '0')}\0`, 124, 'ascii');
  h.write('00000000000\0', 136, 'ascii');
  h.write(entry.type ?? '0', 156, 'ascii');
  if (entry.type === '2') h.write('target', 157, 'ascii');
  h.write('ustar\0', 257, 'ascii');
  h.write('00', 263, 'ascii');
  h.fill(0x20, 148, 156);
  let sum = 0;
  for (const b of h) sum += b;
  h.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'ascii');
  return h;
}

export function tarGz(entries: TarEntry[]): Buffer {
  const blocks: Buffer[] = [];
  for (const e of entries) {
    const data = Buffer.from(e.data ?? '', 'utf8');
    blocks.push(header(e, data.length), data, Buffer.alloc((512 - (data.length % 512)) % 512));
  }
  blocks.push(Buffer.alloc(1024));
  return gzipSync(Buffer.concat(blocks));
}
