import { extractBytes, looksLikeRest, restInline, restToText } from '../../src';

const utf8 = (s: string): Uint8Array => Buffer.from(s, 'utf8');

const RST = [
  ':mod:`functools` --- Higher-order functions',
  '============================================',
  '',
  '.. module:: functools',
  '   :synopsis: Higher-order functions and operations on callable objects.',
  '',
  '.. moduleauthor:: Peter Harris <scav@example.org>',
  '',
  '.. index:: single: cache',
  '   pair: cache; clear',
  '',
  'The :mod:`functools` module is for **higher-order** functions; see :func:`~functools.lru_cache`.',
  '',
  '.. decorator:: lru_cache(maxsize=128, typed=False)',
  '',
  '   Returns the same as ``lru_cache(maxsize=None)``, with *typed* off.',
  '   Call :meth:`cache_info` for `statistics <https://example.org/stats>`_ [#]_ and f(*args, **kwargs).',
  '',
  '   .. note::',
  '',
  '      The cache is |version|-safe, as :pep:`412` says.',
  '',
  '   For example::',
  '',
  '      @lru_cache',
  '      def f(*x): return **x**',
  '',
  '   .. versionchanged:: 3.2',
  '      Added the *typed* option.',
  '',
  '   .. versionadded:: 3.9',
  '',
  'Usage',
  '-----',
  '',
  '.. code-block:: python',
  '   :emphasize-lines: 1',
  '',
  '   print(*raw*)',
  '',
  '.. _target-label:',
  '',
  '.. a comment that says nothing',
  '   and goes on',
  '',
  '.. [#] A footnote with :class:`int` in it.',
].join('\n');

describe('reStructuredText as a reader sees it', () => {
  it('takes roles, literals, links, emphasis, substitutions and footnote references out of a line', () => {
    expect(restInline('Call :func:`run` with ``text=True`` and :meth:`~subprocess.Popen.wait`.')).toBe('Call run with text=True and wait.');
    expect(restInline(':ref:`the tutorial <tut-intro>`, :pep:`8` and :rfc:`2822`')).toBe('the tutorial, PEP 8 and RFC 2822');
    // Python's tracker references as its documentation shows them (decision 0168).
    expect(restInline('See :issue:`28524` and :gh:`104090` for more information.')).toBe(
      'See bpo-28524 and gh-104090 for more information.',
    );
    expect(restInline('a **strong** and *emphasised* word, |version| [1]_')).toBe('a strong and emphasised word, version');
    expect(restInline('f(*args, **kwargs) and a_b_ stay')).toBe('f(*args, **kwargs) and a_b_ stay');
    expect(restInline(':class:`int`\\ s and :c:func:`PyObject_Call`')).toBe('ints and PyObject_Call');
  });

  it('takes strong emphasis that runs over a line break out of the paragraph (decision 0149)', () => {
    const text = [
      '   It is possible to construct malicious pickle data which will **execute',
      '   arbitrary code during unpickling**. Never unpickle it.',
    ].join('\n');
    expect(restToText(text)).toBe(
      [
        '   It is possible to construct malicious pickle data which will execute',
        '   arbitrary code during unpickling. Never unpickle it.',
      ].join('\n'),
    );
    // A lone "**" of a keyword-arguments parameter is not emphasis, on one line or two.
    expect(restToText('Pass **kwargs on to the\ncallable as they are.')).toBe('Pass **kwargs on to the\ncallable as they are.');
  });

  it('leaves directives, options, comments and targets out, keeps signatures, notes, versions and code', () => {
    expect(restToText(RST)).toBe(
      [
        '# functools --- Higher-order functions',
        '',
        'The functools module is for higher-order functions; see lru_cache.',
        '',
        'lru_cache(maxsize=128, typed=False)',
        '',
        '   Returns the same as lru_cache(maxsize=None), with typed off.',
        '   Call cache_info for statistics and f(*args, **kwargs).',
        '',
        '      The cache is version-safe, as PEP 412 says.',
        '',
        '   For example:',
        '',
        '      @lru_cache',
        '      def f(*x): return **x**',
        '',
        '   Changed in version 3.2:',
        '      Added the typed option.',
        '',
        '   New in version 3.9.',
        '',
        '## Usage',
        '',
        '   print(*raw*)',
        '',
        'A footnote with int in it.',
      ].join('\n'),
    );
  });

  it('is recognised by its name or by its markup, and plain text is not', () => {
    expect(looksLikeRest('plain words', 'library/re.rst.txt')).toBe(true);
    expect(looksLikeRest('Use :func:`open` or ``io.open``; see :mod:`io`.', 'notes.txt')).toBe(true);
    expect(looksLikeRest('A note: time is 10:30, and ``quoted`` twice.', 'notes.txt')).toBe(false);
  });

  it('is how a .rst.txt file is stored, titled by its first section title', async () => {
    const result = await extractBytes(utf8(RST), 'library/functools.rst.txt');
    expect(result.title).toBe('functools --- Higher-order functions');
    expect(result.text).toBe(restToText(RST));
    expect(result.mediaType).toBe('text/plain');
    expect(result.text).not.toMatch(/:(?:func|mod|meth|class|pep):`|``|^\s*\.\. /m);
  });
});
