#!/usr/bin/env node
'use strict';
// A minimal PDF 1.4 writer for the example corpus (no dependencies, deterministic output).
//
// Input is plain text: the first line is the document title (it also goes into /Info), a line
// starting with "# ", "## " or "### " is a heading (Helvetica-Bold), a blank line ends a paragraph, and
// every other line is prose that is re-wrapped at about 90 characters. Output: one or more A4
// pages of Helvetica text, a catalog, a page tree, a correct xref table, trailer and startxref.
//
// Usage:
//   node tools/corpus/make-pdf.cjs <input.txt> <output.pdf>
//   node tools/corpus/make-pdf.cjs <input-dir> <output-dir>   (every *.txt in input-dir -> *.pdf)

const fs = require('node:fs');
const path = require('node:path');

const PAGE_WIDTH = 595; // A4 in points
const PAGE_HEIGHT = 842;
const MARGIN_X = 56;
const MARGIN_TOP = 64;
const MARGIN_BOTTOM = 64;
const WRAP_AT = 90; // characters; Helvetica 9.5pt averages ~5pt a character, so 90 fit in 483pt
const BODY_SIZE = 9.5;
const BODY_LEADING = 13;
const HEADING_SIZE = { 1: 14, 2: 11.5, 3: 10.5 };
const HEADING_LEADING = { 1: 22, 2: 17, 3: 15 };

// Helvetica uses WinAnsiEncoding here; the characters the corpus uses beyond ASCII map to these
// bytes. Anything else is refused so that a typo never silently becomes a wrong glyph.
const WIN_ANSI = new Map([
  ['\u2013', 0x96], // en dash
  ['\u2014', 0x97], // em dash
  ['\u2018', 0x91],
  ['\u2019', 0x92],
  ['\u201c', 0x93],
  ['\u201d', 0x94],
  ['\u2022', 0x95], // bullet
  ['\u2026', 0x85], // ellipsis
  ['\u20ac', 0x80], // euro
]);

function encodeWinAnsi(text) {
  const bytes = [];
  for (const ch of text) {
    const code = ch.codePointAt(0);
    if (code >= 0x20 && code <= 0x7e) bytes.push(code);
    else if (WIN_ANSI.has(ch)) bytes.push(WIN_ANSI.get(ch));
    else if (code >= 0xa0 && code <= 0xff)
      bytes.push(code); // Latin-1 block is identical in WinAnsi
    else throw new Error(`make-pdf: character U+${code.toString(16).toUpperCase().padStart(4, '0')} has no WinAnsi glyph`);
  }
  return bytes;
}

// A PDF literal string: ( ) and \ must be escaped; bytes outside printable ASCII are written as
// octal escapes so that the content stream itself stays 7-bit and its /Length is easy to trust.
function pdfString(text) {
  let out = '(';
  for (const b of encodeWinAnsi(text)) {
    if (b === 0x28 || b === 0x29 || b === 0x5c) out += '\\' + String.fromCharCode(b);
    else if (b < 0x20 || b > 0x7e) out += '\\' + b.toString(8).padStart(3, '0');
    else out += String.fromCharCode(b);
  }
  return out + ')';
}

/**
 * A PDF text string outside a content stream (/Info): PDFDocEncoding, which is not WinAnsi (0x96 is an en dash in
 * WinAnsi and "Œ" in PDFDocEncoding), so ASCII as a literal string and anything else as UTF-16BE with its byte-order
 * mark, which every reader decodes the same way (PDF 1.7, 7.9.2.2).
 */
function pdfTextString(text) {
  if (/^[\x20-\x7e]*$/.test(text)) return `(${text.replace(/[()\\]/g, (c) => '\\' + c)})`;
  const utf16le = Buffer.from(text, 'utf16le');
  const be = Buffer.alloc(utf16le.length);
  for (let i = 0; i < utf16le.length; i += 2) {
    be[i] = utf16le[i + 1];
    be[i + 1] = utf16le[i];
  }
  return `<FEFF${be.toString('hex').toUpperCase()}>`;
}

function wrap(text, width) {
  const words = text.split(/\s+/).filter(Boolean);
  const lines = [];
  let line = '';
  for (const word of words) {
    if (line === '') line = word;
    else if (line.length + 1 + word.length <= width) line += ' ' + word;
    else {
      lines.push(line);
      line = word;
    }
  }
  if (line !== '') lines.push(line);
  return lines;
}

// Turns the source text into a flat list of typeset lines: { kind: 'heading'|'body'|'gap', ... }.
function layout(source) {
  const rawLines = source.replace(/\r\n?/g, '\n').split('\n');
  const title = rawLines[0].replace(/^#+\s*/, '').trim();
  const items = [{ kind: 'heading', level: 1, text: title }];
  let paragraph = [];
  const flush = () => {
    if (paragraph.length === 0) return;
    // A paragraph whose lines start with "- " or "* " or "1. " keeps one item per line (lists and
    // table rows must not be merged into running prose).
    const isList = paragraph.every((l) => /^(\s*[-*\u2022]\s|\s*\d+[.)]\s|\s*\|)/.test(l));
    const chunks = isList ? paragraph : [paragraph.join(' ')];
    for (const chunk of chunks) {
      const indent = isList && !chunk.trimStart().startsWith('|') ? '   ' : '';
      wrap(chunk.trim(), WRAP_AT - indent.length).forEach((text, i) => items.push({ kind: 'body', text: (i === 0 ? '' : indent) + text }));
    }
    items.push({ kind: 'gap' });
    paragraph = [];
  };
  for (const line of rawLines.slice(1)) {
    const heading = /^(#{1,3})\s+(.*)$/.exec(line);
    if (heading) {
      flush();
      items.push({ kind: 'heading', level: heading[1].length, text: heading[2].trim() });
    } else if (line.trim() === '') flush();
    else paragraph.push(line);
  }
  flush();
  return { title, items };
}

// Splits the typeset lines into pages and writes one content stream per page.
function paginate(items, title) {
  const pages = [];
  let ops = [];
  let y = PAGE_HEIGHT - MARGIN_TOP;
  const newPage = () => {
    if (ops.length > 0) pages.push(ops);
    ops = [];
    y = PAGE_HEIGHT - MARGIN_TOP;
  };
  for (const item of items) {
    const leading = item.kind === 'heading' ? HEADING_LEADING[item.level] : item.kind === 'gap' ? 6 : BODY_LEADING;
    if (y - leading < MARGIN_BOTTOM) {
      if (item.kind === 'gap') continue;
      newPage();
    }
    if (item.kind === 'gap') {
      y -= leading;
      continue;
    }
    y -= leading;
    if (item.kind === 'heading') {
      // TJ with a tiny positive kern between words is how many real producers set headings; it
      // keeps the words as separate strings, which is what a text extractor must cope with.
      const parts = item.text.split(' ').map((w, i, all) => pdfString(i < all.length - 1 ? w + ' ' : w));
      ops.push(`BT /F2 ${HEADING_SIZE[item.level]} Tf ${MARGIN_X} ${y.toFixed(1)} Td [${parts.join(' -10 ')}] TJ ET`);
    } else {
      ops.push(`BT /F1 ${BODY_SIZE} Tf ${MARGIN_X} ${y.toFixed(1)} Td ${pdfString(item.text)} Tj ET`);
    }
  }
  if (ops.length > 0) pages.push(ops);
  // Footer with page numbers, added once the page count is known.
  return pages.map((pageOps, i) => {
    const footer = `${title.length > 60 ? title.slice(0, 57) + '...' : title} \u2013 page ${i + 1} of ${pages.length}`;
    return [...pageOps, `BT /F1 8 Tf ${MARGIN_X} 36 Td ${pdfString(footer)} Tj ET`].join('\n') + '\n';
  });
}

/** Builds the bytes of a PDF 1.4 file from the source text. */
function makePdf(source) {
  const { title, items } = layout(source);
  const streams = paginate(items, title);

  // Object numbers: 1 catalog, 2 page tree, 3 Helvetica, 4 Helvetica-Bold, 5 info,
  // then for each page a page object followed by its content stream.
  const objects = [];
  const pageIds = streams.map((_, i) => 6 + i * 2);
  objects[1] = '<< /Type /Catalog /Pages 2 0 R >>';
  objects[2] = `<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(' ')}] /Count ${pageIds.length} >>`;
  objects[3] = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>';
  objects[4] = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>';
  objects[5] = `<< /Title ${pdfTextString(title)} /Producer (Dossier tools/corpus/make-pdf.cjs) >>`;
  streams.forEach((content, i) => {
    const pageId = pageIds[i];
    objects[pageId] =
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${PAGE_WIDTH} ${PAGE_HEIGHT}] ` +
      `/Resources << /Font << /F1 3 0 R /F2 4 0 R >> >> /Contents ${pageId + 1} 0 R >>`;
    objects[pageId + 1] = `<< /Length ${Buffer.byteLength(content, 'latin1')} >>\nstream\n${content}endstream`;
  });

  // The header's second line holds four bytes above 127 so that tools treat the file as binary.
  const chunks = ['%PDF-1.4\n%\u00e2\u00e3\u00cf\u00d3\n'];
  let offset = Buffer.byteLength(chunks[0], 'latin1');
  const offsets = [];
  for (let id = 1; id < objects.length; id++) {
    offsets[id] = offset;
    const obj = `${id} 0 obj\n${objects[id]}\nendobj\n`;
    chunks.push(obj);
    offset += Buffer.byteLength(obj, 'latin1');
  }
  const xrefOffset = offset;
  // Each xref entry is exactly 20 bytes: 10-digit offset, space, 5-digit generation, space, n/f, CR LF.
  let xref = `xref\n0 ${objects.length}\n0000000000 65535 f\r\n`;
  for (let id = 1; id < objects.length; id++) xref += `${String(offsets[id]).padStart(10, '0')} 00000 n\r\n`;
  xref += `trailer\n<< /Size ${objects.length} /Root 1 0 R /Info 5 0 R >>\nstartxref\n${xrefOffset}\n%%EOF\n`;
  chunks.push(xref);
  return Buffer.from(chunks.join(''), 'latin1');
}

function convertFile(input, output) {
  const bytes = makePdf(fs.readFileSync(input, 'utf8'));
  fs.writeFileSync(output, bytes);
  return bytes.length;
}

function main(argv) {
  if (argv.length !== 2) {
    console.error('usage: make-pdf.cjs <input.txt> <output.pdf> | make-pdf.cjs <input-dir> <output-dir>');
    return 2;
  }
  const [input, output] = argv;
  if (fs.statSync(input).isDirectory()) {
    const sources = fs
      .readdirSync(input)
      .filter((f) => f.endsWith('.txt'))
      .sort();
    if (sources.length === 0) throw new Error(`make-pdf: no .txt sources in ${input}`);
    fs.mkdirSync(output, { recursive: true });
    for (const name of sources) {
      const target = path.join(output, name.replace(/\.txt$/, '.pdf'));
      console.log(`${target} (${convertFile(path.join(input, name), target)} bytes)`);
    }
  } else {
    console.log(`${output} (${convertFile(input, output)} bytes)`);
  }
  return 0;
}

if (require.main === module) process.exitCode = main(process.argv.slice(2));

module.exports = {
  pdfTextString,
  makePdf,
  layout,
  pdfString,
};
