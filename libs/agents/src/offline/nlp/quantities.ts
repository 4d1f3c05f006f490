/*
 * Figures in text: numbers with units (normalised to SI-like canonical units so "13.8 feet" and
 * "4.21 m" compare), percentages, money, years and dates. Contradiction and entailment checks compare
 * these values rather than strings.
 */

export type QuantityKind = 'number' | 'percent' | 'year' | 'date' | 'money';

export interface Quantity {
  /** Normalised value: converted to the canonical unit; money and counts with multipliers applied; dates as UTC ms. */
  value: number;
  /** Canonical unit ('m', 'm2', 'm3', 'kg', 's', 'W', 'Wh', '°C', 'm/s', '%', 'pp', a currency code), 'day'/'month' precision for dates, or null. */
  unit: string | null;
  /** The text as written, e.g. "13.8 feet". */
  raw: string;
  kind: QuantityKind;
  /** The unit as written, normalised ('ft' for "13.8 feet", 'm' for "4.2 metres"); the currency for money; null for bare numbers, years and dates. */
  sourceUnit: string | null;
  /** Offsets of `raw` in the input. */
  start: number;
  end: number;
}

const NUMBER = String.raw`(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?`;
const MONTHS: readonly [RegExp, number][] = [
  [/^Jan(?:uary)?$/, 1],
  [/^Feb(?:ruary)?$/, 2],
  [/^Mar(?:ch)?$/, 3],
  [/^Apr(?:il)?$/, 4],
  [/^May$/, 5],
  [/^June?$/, 6],
  [/^July?$/, 7],
  [/^Aug(?:ust)?$/, 8],
  [/^Sept?(?:ember)?$/, 9],
  [/^Oct(?:ober)?$/, 10],
  [/^Nov(?:ember)?$/, 11],
  [/^Dec(?:ember)?$/, 12],
];
// Month names are capitalised in English; requiring that keeps the verb "may" and "march" out.
const MONTH = String.raw`(?:January|February|March|April|May|June|July|August|September|October|November|December|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sept|Sep|Oct|Nov|Dec)`;
const ORDINAL = String.raw`(?:st|nd|rd|th)?`;

const DATE_PATTERNS: readonly { re: RegExp; parts: (m: RegExpExecArray) => [number, number, number | null] }[] = [
  { re: /\b(\d{4})-(\d{2})-(\d{2})\b/g, parts: (m) => [Number(m[1]), Number(m[2]), Number(m[3])] },
  {
    re: new RegExp(String.raw`\b(\d{1,2})${ORDINAL}\s+(?:of\s+)?(${MONTH})\.?,?\s+(\d{4})\b`, 'g'),
    parts: (m) => [Number(m[3]), monthNumber(m[2]), Number(m[1])],
  },
  {
    re: new RegExp(String.raw`\b(${MONTH})\.?\s+(\d{1,2})${ORDINAL},?\s+(\d{4})\b`, 'g'),
    parts: (m) => [Number(m[3]), monthNumber(m[1]), Number(m[2])],
  },
  { re: new RegExp(String.raw`\b(${MONTH})\.?,?\s+(?:of\s+)?(\d{4})\b`, 'g'), parts: (m) => [Number(m[2]), monthNumber(m[1]), null] },
];

function monthNumber(name: string): number {
  for (const [re, n] of MONTHS) if (re.test(name)) return n;
  return 0;
}

interface UnitRule {
  /** The unit as written, normalised ('ft' for "feet"): tells "same unit, other value" from "other unit". */
  name: string;
  re: RegExp;
  unit: string;
  kind?: QuantityKind;
  factor: number;
  offset?: number;
}

// Order matters: the first rule that matches at the position wins, so compound units come first.
const UNIT_RULES: readonly UnitRule[] = [
  { name: '%', re: /(?:%|percent\b|per cent\b)/y, unit: '%', kind: 'percent', factor: 1 },
  { name: 'pp', re: /percentage points?\b/y, unit: 'pp', kind: 'percent', factor: 1 },
  { name: 'km/h', re: /(?:km\/h|kph\b|kilomet(?:re|er)s? (?:per|an) hour\b)/y, unit: 'm/s', factor: 1 / 3.6 },
  { name: 'mph', re: /(?:mph\b|miles (?:per|an) hour\b)/y, unit: 'm/s', factor: 0.44704 },
  { name: 'm/s', re: /(?:m\/s\b|met(?:re|er)s? per second\b)/y, unit: 'm/s', factor: 1 },
  { name: 'km2', re: /(?:square kilomet(?:re|er)s?\b|sq\.? ?km\b|km²|km2\b)/y, unit: 'm2', factor: 1e6 },
  { name: 'm2', re: /(?:square met(?:re|er)s?\b|sq\.? ?m\b|m²|m2\b)/y, unit: 'm2', factor: 1 },
  { name: 'ft2', re: /(?:square (?:feet|foot)\b|sq\.? ?ft\b|ft²)/y, unit: 'm2', factor: 0.09290304 },
  { name: 'ha', re: /(?:hectares?\b|ha\b)/y, unit: 'm2', factor: 1e4 },
  { name: 'acre', re: /acres?\b/y, unit: 'm2', factor: 4046.8564224 },
  { name: 'm3', re: /(?:cubic met(?:re|er)s?\b|m³|m3\b)/y, unit: 'm3', factor: 1 },
  { name: 'ft3', re: /(?:cubic (?:feet|foot)\b|cu\.? ?ft\b|ft³)/y, unit: 'm3', factor: 0.028316846592 },
  { name: 'L', re: /(?:lit(?:re|er)s?\b|L\b)/y, unit: 'm3', factor: 0.001 },
  { name: 'gal', re: /gallons?\b/y, unit: 'm3', factor: 0.003785411784 },
  { name: 'km', re: /(?:kilomet(?:re|er)s?\b|km\b)/y, unit: 'm', factor: 1000 },
  { name: 'cm', re: /(?:centimet(?:re|er)s?\b|cm\b)/y, unit: 'm', factor: 0.01 },
  { name: 'mm', re: /(?:millimet(?:re|er)s?\b|mm\b)/y, unit: 'm', factor: 0.001 },
  { name: 'm', re: /(?:met(?:re|er)s?\b|m\b)/y, unit: 'm', factor: 1 },
  { name: 'ft', re: /(?:feet|foot|ft)\b/y, unit: 'm', factor: 0.3048 },
  { name: 'in', re: /inch(?:es)?\b/y, unit: 'm', factor: 0.0254 },
  { name: 'mi', re: /(?:miles?\b|mi\b)/y, unit: 'm', factor: 1609.344 },
  { name: 'yd', re: /(?:yards?\b|yd\b)/y, unit: 'm', factor: 0.9144 },
  { name: 'mg', re: /(?:milligrams?\b|mg\b)/y, unit: 'kg', factor: 1e-6 },
  { name: 'kg', re: /(?:kilograms?\b|kg\b)/y, unit: 'kg', factor: 1 },
  { name: 'g', re: /grams?\b/y, unit: 'kg', factor: 0.001 },
  { name: 't', re: /(?:metric )?(?:tonnes?|tons?)\b/y, unit: 'kg', factor: 1000 },
  { name: 'lb', re: /lbs?\b/y, unit: 'kg', factor: 0.45359237 },
  { name: 'TWh', re: /TWh\b/y, unit: 'Wh', factor: 1e12 },
  { name: 'GWh', re: /GWh\b/y, unit: 'Wh', factor: 1e9 },
  { name: 'MWh', re: /MWh\b/y, unit: 'Wh', factor: 1e6 },
  { name: 'kWh', re: /kWh\b/y, unit: 'Wh', factor: 1e3 },
  { name: 'GW', re: /(?:GW\b|gigawatts?\b)/y, unit: 'W', factor: 1e9 },
  { name: 'MW', re: /(?:MW\b|megawatts?\b)/y, unit: 'W', factor: 1e6 },
  { name: 'kW', re: /(?:kW\b|kilowatts?\b)/y, unit: 'W', factor: 1e3 },
  { name: 'W', re: /(?:W\b|watts?\b)/y, unit: 'W', factor: 1 },
  { name: '°C', re: /(?:°\s?C\b|degrees? (?:Celsius|centigrade)\b)/y, unit: '°C', factor: 1 },
  { name: '°F', re: /(?:°\s?F\b|degrees? Fahrenheit\b)/y, unit: '°C', factor: 5 / 9, offset: -32 },
  { name: 'year', re: /(?:years?|yrs?)\b/y, unit: 's', factor: 31_557_600 },
  { name: 'month', re: /months?\b/y, unit: 's', factor: 2_629_800 },
  { name: 'week', re: /weeks?\b/y, unit: 's', factor: 604_800 },
  { name: 'day', re: /days?\b/y, unit: 's', factor: 86_400 },
  { name: 'hour', re: /(?:hours?|hrs?)\b/y, unit: 's', factor: 3_600 },
  { name: 'minute', re: /(?:minutes?|mins?)\b/y, unit: 's', factor: 60 },
  { name: 'second', re: /(?:seconds?|secs?)\b/y, unit: 's', factor: 1 },
];

const MULTIPLIERS: Record<string, number> = {
  thousand: 1e3,
  k: 1e3,
  million: 1e6,
  mn: 1e6,
  m: 1e6,
  billion: 1e9,
  bn: 1e9,
  b: 1e9,
  trillion: 1e12,
  tn: 1e12,
};
// "m" and "b" mean million/billion only next to a currency ("$5m"); elsewhere "5 m" is five metres.
const MULTIPLIER_WORD = /[ \t]?(thousand|million|billion|trillion|mn|bn|tn)\b|(k)\b/iy;
const MONEY_MULTIPLIER = /[ \t]?(thousand|million|billion|trillion|mn|bn|tn|m|b|k)\b/iy;

const CURRENCY_BEFORE = /(?:(US\$|A\$|C\$|NZ\$|HK\$|\$|€|£|¥)|\b(USD|EUR|GBP|JPY|CHF|CNY|AUD|CAD|INR))[ \t]?$/;
const CURRENCY_AFTER = /[ \t]?(?:(US dollars?|dollars?|euros?|pounds sterling|yen|USD|EUR|GBP|JPY|CHF|CNY|AUD|CAD|INR)\b)/y;
const SYMBOL_CODES: Record<string, string> = {
  US$: 'USD',
  $: 'USD',
  A$: 'AUD',
  C$: 'CAD',
  NZ$: 'NZD',
  HK$: 'HKD',
  '€': 'EUR',
  '£': 'GBP',
  '¥': 'JPY',
};
const WORD_CODES: Record<string, string> = { dollar: 'USD', 'us dollar': 'USD', euro: 'EUR', 'pounds sterling': 'GBP', yen: 'JPY' };

// Words before a bare four-digit number that make it a year ("in 2020", "the 2020 election").
const YEAR_CONTEXT = new Set([
  'in',
  'since',
  'by',
  'from',
  'until',
  'till',
  'before',
  'after',
  'of',
  'during',
  'circa',
  'c',
  'ca',
  'early',
  'late',
  'mid',
  'year',
  'the',
  'to',
  'and',
  'between',
  'around',
  'through',
  'on',
  'fy',
  'as',
  'than',
]);

// Words that make even an older four-digit number a year ("built in 1889", "between 1887 and 1889").
const STRONG_YEAR_CONTEXT = new Set([
  'in',
  'since',
  'by',
  'from',
  'until',
  'till',
  'before',
  'after',
  'during',
  'circa',
  'c',
  'ca',
  'between',
  'year',
  'early',
  'late',
  'mid',
]);

/** Between the two ends of a range of years or of numbered things ("1887–1889", "weeks 08 to 41", "sections 3 and 4"). */
const RANGE_JOINER = /^\s*(?:-|\u2013|\u2014|and|to|or|through)\s*$/;

/**
 * A bare four-digit integer is a year when 1900–2100 and in a year-like position (after "in", "the"…, or not
 * followed by a lower-case noun as in "2000 workers"); 1000–1899 only right after a year preposition or as the
 * second year of a range ("1887–1889", "1887 and 1889").
 */
function isYear(text: string, start: number, end: number, value: number, found: readonly Quantity[]): boolean {
  const prev = previousWord(text, start);
  if (value >= 1900 && value <= 2100) {
    const nextWord = /^\s*([\p{L}]+)/u.exec(text.slice(end));
    return YEAR_CONTEXT.has(prev) || !nextWord || !/^\p{Ll}/u.test(nextWord[1]);
  }
  if (value < 1000 || value > 2100) return false;
  if (STRONG_YEAR_CONTEXT.has(prev)) return true;
  // Dates are found first, so the figure just before this one is the one ending closest before it.
  let last: Quantity | undefined;
  for (const q of found) if (q.end <= start && (last === undefined || q.end > last.end)) last = q;
  return last !== undefined && last.kind === 'year' && RANGE_JOINER.test(text.slice(last.end, start));
}

/** The year a two-digit number right after "YYYY–" or "YYYY-" stands for, when it is later in the same century; else null. */
function shortSecondYear(text: string, start: number, value: number, found: readonly Quantity[]): number | null {
  const last = found.at(-1);
  if (last === undefined || last.kind !== 'year' || !/^[-\u2013]$/.test(text.slice(last.end, start))) return null;
  const century = Math.floor(last.value / 100) * 100;
  return value > last.value - century ? century + value : null;
}

function parseNumber(raw: string): number {
  return Number(raw.replace(/,/g, ''));
}

function overlaps(taken: readonly [number, number][], start: number, end: number): boolean {
  return taken.some(([s, e]) => start < e && end > s);
}

function findDates(text: string, out: Quantity[], taken: [number, number][]): void {
  for (const { re, parts } of DATE_PATTERNS) {
    re.lastIndex = 0;
    for (let m = re.exec(text); m !== null; m = re.exec(text)) {
      const start = m.index;
      const end = start + m[0].length;
      if (overlaps(taken, start, end)) continue;
      const [year, month, day] = parts(m);
      if (month < 1 || month > 12 || year < 1000 || year > 2999) continue;
      const value = Date.UTC(year, month - 1, day ?? 1);
      // Date.UTC rolls 31 April over into May; such a "date" is not one.
      if (day !== null && new Date(value).getUTCDate() !== day) continue;
      out.push({ value, unit: day === null ? 'month' : 'day', raw: m[0], kind: 'date', sourceUnit: null, start, end });
      taken.push([start, end]);
    }
  }
}

function matchAt(re: RegExp, text: string, at: number): RegExpExecArray | null {
  re.lastIndex = at;
  return re.exec(text);
}

function previousWord(text: string, start: number): string {
  const m = /([\p{L}]+)[\s(]*$/u.exec(text.slice(Math.max(0, start - 20), start));
  return m ? m[1].toLowerCase() : '';
}

/** Every figure in the text, in order of position. */
export function extractQuantities(text: string): Quantity[] {
  const out: Quantity[] = [];
  const taken: [number, number][] = [];
  findDates(text, out, taken);

  const numberRe = new RegExp(NUMBER, 'g');
  for (let m = numberRe.exec(text); m !== null; m = numberRe.exec(text)) {
    let start = m.index;
    let cursor = start + m[0].length;
    if (overlaps(taken, start, cursor)) continue;
    const before = text[start - 1] ?? '';
    // Glued to a word ("v2.1", "COVID-19", "A4") or part of a time, fraction or identifier: not a figure.
    if (/[\p{L}_]/u.test(before) || (before === '-' && /[\p{L}]/u.test(text[start - 2] ?? '')) || /[:/#]/.test(before)) continue;
    if (/^[:/]\d/.test(text.slice(cursor, cursor + 2))) continue;
    let value = parseNumber(m[0]);
    if ((before === '-' || before === '\u2212') && /^$|[\s(=]/.test(text[start - 2] ?? '')) {
      value = -value;
      start -= 1;
    }

    const currencyBefore = CURRENCY_BEFORE.exec(text.slice(Math.max(0, start - 6), start));
    let currency: string | null = null;
    if (currencyBefore) {
      currency = currencyBefore[1] !== undefined ? SYMBOL_CODES[currencyBefore[1]] : currencyBefore[2];
      start -= currencyBefore[0].length;
    }

    const mult = matchAt(currency ? MONEY_MULTIPLIER : MULTIPLIER_WORD, text, cursor);
    let multiplied = false;
    if (mult) {
      value *= MULTIPLIERS[(mult[1] ?? mult[2] ?? '').toLowerCase()] ?? 1;
      cursor += mult[0].length;
      multiplied = true;
    }

    if (!currency) {
      const after = matchAt(CURRENCY_AFTER, text, cursor);
      if (after) {
        const word = after[1].toLowerCase().replace(/s$/, '');
        currency = WORD_CODES[word] ?? after[1].toUpperCase();
        cursor += after[0].length;
      }
    }
    if (currency) {
      out.push({ value, unit: currency, raw: text.slice(start, cursor), kind: 'money', sourceUnit: currency, start, end: cursor });
      continue;
    }

    let rule: UnitRule | null = null;
    const gap = /[ \t]?-?/y;
    gap.lastIndex = cursor;
    const unitStart = cursor + (gap.exec(text)?.[0].length ?? 0);
    for (const r of UNIT_RULES) {
      const u = matchAt(r.re, text, unitStart);
      if (u) {
        rule = r;
        cursor = unitStart + u[0].length;
        break;
      }
    }
    // Letters glued to a number that are no unit ("1st", "5G", "3D", "1990s"): not a quantity.
    if (!rule && /[\p{L}]/u.test(text[cursor] ?? '')) continue;

    const raw = text.slice(start, cursor);
    if (rule) {
      const converted = (value + (rule.offset ?? 0)) * rule.factor;
      out.push({
        value: roundSignificant(converted),
        unit: rule.unit,
        raw,
        kind: rule.kind ?? 'number',
        sourceUnit: rule.name,
        start,
        end: cursor,
      });
      continue;
    }
    if (/^\d{4}$/.test(m[0]) && !multiplied && isYear(text, start, cursor, value, out)) {
      out.push({ value, unit: null, raw, kind: 'year', sourceUnit: null, start, end: cursor });
      continue;
    }
    // The second year of a span written short ("the 2015–16 low", "in winter 2016-17"): a year, not the number 16
    // (decision 0166: a reason dating what it explains was read as naming a figure).
    const year = shortSecondYear(text, start, value, out);
    if (/^\d{2}$/.test(m[0]) && !multiplied && year !== null) {
      out.push({ value: year, unit: null, raw, kind: 'year', sourceUnit: null, start, end: cursor });
      continue;
    }
    out.push({ value, unit: null, raw, kind: 'number', sourceUnit: null, start, end: cursor });
  }
  return out.sort((a, b) => a.start - b.start);
}

/**
 * Words naming a numbered thing: a bare number right after one identifies it ("weeks 08 to 41", "section 21", "version
 * 2.2"), it measures nothing. Two statements naming other weeks or sections are about other things, not in conflict
 * (decision 0168: "produced in weeks 08 to 41" against "we tested 24 packs produced in weeks 10 to 50" was a dispute).
 */
const LABEL_WORDS = new Set([
  'week',
  'weeks',
  'section',
  'sections',
  'chapter',
  'chapters',
  'page',
  'pages',
  'article',
  'articles',
  'paragraph',
  'paragraphs',
  'clause',
  'clauses',
  'version',
  'versions',
  'figure',
  'fig',
  'table',
  'item',
  'step',
  'phase',
  'part',
  'appendix',
  'annex',
  'no',
  'nos',
  'revision',
  'rev',
  'issue',
  'volume',
  'vol',
  'edition',
  'release',
  'rule',
  'row',
  'column',
  'question',
  'line',
  'route',
  'grade',
  'pep',
]);
/** Before a date that a count runs up to ("14 reports up to 31 January 2025"): when it was counted, not when it happened. */
const AS_OF = /\b(?:up to|as of|as at|to date,?)\s+(?:the\s+)?$/i;

/**
 * What a figure of `extractQuantities(text)` is in its statement: an identifier's number ('label'), the date a count
 * runs up to ('as-of'), or a measure or a point in time (null).
 */
export function figureRoles(text: string, quantities: readonly Quantity[]): ('label' | 'as-of' | null)[] {
  const roles: ('label' | 'as-of' | null)[] = [];
  quantities.forEach((q, i) => {
    if (isTime(q)) {
      roles.push(AS_OF.test(text.slice(Math.max(0, q.start - 24), q.start)) ? 'as-of' : null);
      return;
    }
    if (q.kind !== 'number' || q.unit !== null) return roles.push(null);
    const prev = quantities[i - 1];
    const ranged = prev !== undefined && roles[i - 1] === 'label' && RANGE_JOINER.test(text.slice(prev.end, q.start));
    const word = /(\p{L}+)\.?[\s(]*$/u.exec(text.slice(Math.max(0, q.start - 20), q.start))?.[1]?.toLowerCase() ?? '';
    roles.push(ranged || LABEL_WORDS.has(word) || inCode(text, q) ? 'label' : null);
  });
  return roles;
}

/**
 * A number inside a code that holds letters: a serial number ("VB36-2308-00001"), a report's number ("OTL-25-0412"), a
 * name ("COVID-19"). "Affected packs have a serial number from VB36-2308-00001 …" disputed "2308 vs 23" with "… starts
 * with VB36-23" (velora-recall q07; decision 0169). A bare range ("10-50") holds no letter and stays a figure.
 */
function inCode(text: string, q: Quantity): boolean {
  const before = /[\p{L}\p{N}]+(?:[-/][\p{L}\p{N}]+)*[-/]$/u.exec(text.slice(Math.max(0, q.start - 40), q.start))?.[0] ?? '';
  const after = /^(?:[-/][\p{L}\p{N}]+)+/u.exec(text.slice(q.end, q.end + 40))?.[0] ?? '';
  return /\p{L}/u.test(before + after) && (before.length > 0 || after.length > 0);
}

/** Conversions leave float noise (13.8 ft = 4.2062399999 m); twelve significant digits keep values comparable. */
function roundSignificant(x: number): number {
  return x === 0 ? 0 : Number(x.toPrecision(12));
}

/** The calendar year of a year or date quantity. */
export function yearOf(q: Quantity): number {
  return q.kind === 'year' ? q.value : new Date(q.value).getUTCFullYear();
}

/**
 * Whether two quantities measure the same kind of thing and so can be compared: the same canonical unit
 * (and kind), or both points in time (a year, a month, a day).
 */
export function comparable(a: Quantity, b: Quantity): boolean {
  if (isTime(a) || isTime(b)) return isTime(a) && isTime(b);
  return a.kind === b.kind && a.unit === b.unit;
}

export function isTime(q: Quantity): boolean {
  return q.kind === 'year' || q.kind === 'date';
}

/**
 * Whether two comparable quantities agree: points in time at the coarser precision of the two; other
 * values within `tolerance` relative difference.
 */
export function sameQuantity(a: Quantity, b: Quantity, tolerance = 0.05): boolean {
  if (isTime(a) && isTime(b)) {
    if (a.kind === 'year' || b.kind === 'year') return yearOf(a) === yearOf(b);
    const da = new Date(a.value);
    const db = new Date(b.value);
    if (da.getUTCFullYear() !== db.getUTCFullYear() || da.getUTCMonth() !== db.getUTCMonth()) return false;
    return a.unit === 'month' || b.unit === 'month' || da.getUTCDate() === db.getUTCDate();
  }
  const scale = Math.max(Math.abs(a.value), Math.abs(b.value));
  return scale === 0 || Math.abs(a.value - b.value) / scale <= tolerance;
}
