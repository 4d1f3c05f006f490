import { linkableUrl } from '../src';

describe('linkableUrl', () => {
  it.each([
    ['https://www.eia.gov/todayinenergy/detail.php?id=61202', 'https://www.eia.gov/todayinenergy/detail.php?id=61202'],
    ['http://example.org', 'http://example.org/'],
    ['HTTPS://Example.org/a b', 'https://example.org/a%20b'],
    ['corpus://lbnl/report.pdf', 'corpus://lbnl/report.pdf'],
    ['corpus:doc-42', 'corpus:doc-42'],
  ])('links %j as %j', (raw, expected) => {
    expect(linkableUrl(raw)).toBe(expected);
  });

  it.each([
    'javascript:alert(1)',
    'JavaScript:alert(1)',
    ' javascript:alert(1)',
    'java\tscript:alert(1)',
    'java\nscript:alert(1)',
    '\u0001javascript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'vbscript:msgbox(1)',
    'file:///etc/passwd',
    'ftp://example.org/x',
    '/relative/path',
    '//evil.example/x',
    '',
    'not a url',
  ])('refuses to link %j', (raw) => {
    expect(linkableUrl(raw)).toBeNull();
  });
});
