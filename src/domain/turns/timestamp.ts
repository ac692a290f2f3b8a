import { invalid } from '../errors.js';

// RFC 3339 date-time: date, `T` (or `t` or a space), time with optional fraction, and a required zone.
const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-](\d{2}):(\d{2}))$/;

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function daysInMonth(year: number, month: number): number {
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return month === 2 && leap ? 29 : (DAYS_IN_MONTH[month - 1] ?? 0);
}

/**
 * Parses an RFC 3339 timestamp and returns it as ISO 8601 UTC with milliseconds, the one form stored
 * and returned (it also sorts correctly as text). Digits past milliseconds are truncated. Impossible
 * dates (February 30th), leap seconds and results outside years 0000–9999 are rejected.
 */
export function normaliseTimestamp(field: string, value: string): string {
  const match = RFC3339.exec(value);
  const problem = 'must be an ISO 8601 timestamp with a time zone, such as 2026-11-21T10:00:00.000Z.';
  if (!match) throw invalid(field, problem);
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const offsetHours = match[9] === undefined ? 0 : Number(match[9]);
  const offsetMinutes = match[10] === undefined ? 0 : Number(match[10]);
  if (
    month < 1 ||
    month > 12 ||
    day < 1 ||
    day > daysInMonth(year, month) ||
    hour > 23 ||
    minute > 59 ||
    second > 59 ||
    offsetHours > 23 ||
    offsetMinutes > 59
  ) {
    throw invalid(field, problem);
  }
  const ms = Date.parse(value.replace(' ', 'T').toUpperCase());
  if (Number.isNaN(ms)) throw invalid(field, problem);
  const iso = new Date(ms).toISOString();
  // Years outside 0000–9999 are written with six digits and a sign, which would not sort as text.
  if (iso.length !== 24) throw invalid(field, 'must be between the years 0000 and 9999.');
  return iso;
}
