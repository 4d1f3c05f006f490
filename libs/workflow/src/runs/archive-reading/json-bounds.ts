/** How far a JSON text may go before it is parsed (issue 30): what `JSON.parse` would otherwise build unbounded. */
export interface JsonBounds {
  /** Nesting of arrays and objects. */
  maxDepth: number;
  /** Items of one array, members of one object. */
  maxItems: number;
  /** Characters (UTF-16 units) of one string, keys included. */
  maxStringChars: number;
}

/** Where and why a JSON text went beyond its bounds, or holds what Postgres cannot store (NUL, a lone surrogate). */
export class JsonBoundsError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(`${message} (at character ${offset})`);
    this.name = 'JsonBoundsError';
  }
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const COMMA = 0x2c;

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

function hexValue(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  if (c >= 0x61 && c <= 0x66) return c - 0x57;
  if (c >= 0x41 && c <= 0x46) return c - 0x37;
  return -1;
}

interface Container {
  object: boolean;
  items: number;
  /** Nothing inside yet: the next value (or key) is the first item. */
  empty: boolean;
}

/**
 * Checks a JSON text's shape as it streams in, without building anything: nesting depth, items per array or object,
 * characters per string, and no NUL or lone UTF-16 surrogate in a string (raw or escaped; Postgres refuses both, and
 * they gave 500s). Whether the text is JSON at all is left to `JSON.parse`, which runs only once this passed, so a
 * 200,000-deep array is refused here instead of overflowing the parser's stack, and a 64 MiB string before it is
 * ever materialised. Feed chunks in order with `feed`, then call `end`.
 */
export class JsonBoundsScanner {
  private readonly stack: Container[] = [];
  private offset = 0;
  private inString = false;
  /** 0: not in an escape; 1: after a backslash; 2–5: reading the four hex digits of \u. */
  private escape = 0;
  private unicode = 0;
  /** The string's last character was a high surrogate (escaped or raw): the next must be a low one. */
  private highSurrogate = false;
  private stringChars = 0;

  constructor(private readonly bounds: JsonBounds) {}

  feed(chunk: string): void {
    const { maxDepth, maxItems } = this.bounds;
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk.charCodeAt(i);
      const at = this.offset + i;
      if (this.inString) {
        if (this.escape === 1) {
          this.escape = c === 0x75 /* u */ ? 2 : 0;
          this.unicode = 0;
          if (this.escape === 0) this.character(0x41, at);
          continue;
        }
        if (this.escape >= 2) {
          const h = hexValue(c);
          if (h < 0) throw new JsonBoundsError('a \\u escape with a character that is not hex', at);
          this.unicode = this.unicode * 16 + h;
          if (++this.escape === 6) {
            this.escape = 0;
            this.character(this.unicode, at);
          }
          continue;
        }
        if (c === BACKSLASH) {
          this.escape = 1;
          continue;
        }
        if (c === QUOTE) {
          if (this.highSurrogate) throw new JsonBoundsError('a string with a lone UTF-16 surrogate', at);
          this.inString = false;
          continue;
        }
        this.character(c, at);
        continue;
      }
      if (isSpace(c)) continue;
      const top = this.stack[this.stack.length - 1];
      if (c === COMMA) {
        if (top && ++top.items > maxItems) {
          throw new JsonBoundsError(`an ${top.object ? 'object with more than' : 'array with more than'} ${maxItems} items`, at);
        }
        continue;
      }
      if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) {
        this.stack.pop();
        continue;
      }
      // A value (or an object's key) starts: the first one of its container counts as its first item.
      if (top?.empty) {
        top.empty = false;
        top.items = 1;
      }
      if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
        if (this.stack.length >= maxDepth) throw new JsonBoundsError(`arrays and objects nested deeper than ${maxDepth} levels`, at);
        this.stack.push({ object: c === OPEN_OBJECT, items: 0, empty: true });
      } else if (c === QUOTE) {
        this.inString = true;
        this.stringChars = 0;
        this.highSurrogate = false;
        // An object's key and its value are one member: the value's string does not count again.
      }
    }
    this.offset += chunk.length;
  }

  /** The whole text was fed. A text cut inside a string is left for JSON.parse to call malformed. */
  end(): void {
    if (this.inString && this.highSurrogate) throw new JsonBoundsError('a string with a lone UTF-16 surrogate', this.offset);
  }

  /** One character of a string (a raw UTF-16 unit, or the value of an escape). */
  private character(unit: number, at: number): void {
    this.stringChars++;
    if (this.stringChars > this.bounds.maxStringChars) {
      throw new JsonBoundsError(`a string longer than ${this.bounds.maxStringChars} characters`, at);
    }
    if (unit === 0) throw new JsonBoundsError('a NUL character in a string', at);
    const high = unit >= 0xd800 && unit <= 0xdbff;
    const low = unit >= 0xdc00 && unit <= 0xdfff;
    if (this.highSurrogate !== low) throw new JsonBoundsError('a string with a lone UTF-16 surrogate', at);
    this.highSurrogate = high;
  }
}
