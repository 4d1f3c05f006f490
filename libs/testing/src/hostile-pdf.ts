import { deflateSync } from 'node:zlib';

/**
 * A PDF whose one page's content stream is Flate-compressed and inflates to `inflatedBytes` (text-showing operators,
 * then spaces): a few KiB on the wire, as much as you like for the parser (a decompression bomb). With a small size it
 * is an ordinary compressed PDF whose text ("Compressed line") extracts.
 */
export function flatePdf(inflatedBytes: number): Buffer {
  const line = 'BT /F1 12 Tf 72 712 Td (Compressed line) Tj ET\n';
  // Text operators for the first MiB, then spaces (whitespace between operators): the bomb's 64 MiB stay ~64 KiB.
  const content = Buffer.alloc(inflatedBytes, ' ', 'latin1');
  content.fill(line, 0, Math.min(inflatedBytes, 1024 * 1024), 'latin1');
  const stream = deflateSync(content, { level: 9 });
  const parts: Buffer[] = [];
  const offsets: number[] = [];
  let size = 0;
  const push = (b: Buffer) => {
    parts.push(b);
    size += b.length;
  };
  const object = (n: number, body: Buffer | string) => {
    offsets[n] = size;
    push(Buffer.from(`${n} 0 obj\n`, 'latin1'));
    push(typeof body === 'string' ? Buffer.from(body, 'latin1') : body);
    push(Buffer.from('\nendobj\n', 'latin1'));
  };
  push(Buffer.from('%PDF-1.4\n', 'latin1'));
  object(1, '<< /Type /Catalog /Pages 2 0 R >>');
  object(2, '<< /Type /Pages /Kids [3 0 R] /Count 1 >>');
  object(3, '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>');
  object(
    4,
    Buffer.concat([
      Buffer.from(`<< /Length ${stream.length} /Filter /FlateDecode >>\nstream\n`, 'latin1'),
      stream,
      Buffer.from('\nendstream', 'latin1'),
    ]),
  );
  object(5, '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>');
  const xref = size;
  push(
    Buffer.from(
      `xref\n0 6\n0000000000 65535 f \n${offsets
        .slice(1)
        .map((o) => `${String(o).padStart(10, '0')} 00000 n \n`)
        .join('')}`,
      'latin1',
    ),
  );
  push(Buffer.from(`trailer\n<< /Size 6 /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`, 'latin1'));
  return Buffer.concat(parts);
}
