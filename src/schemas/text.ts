import { Type } from '@sinclair/typebox';

/**
 * At least one character that is not white space: the schema form of "must not be empty after
 * trimming". JavaScript's `\s` is the set `String.prototype.trim` removes, so both checks agree.
 */
export const NOT_BLANK = '\\S';

interface TextOptions {
  description?: string;
  examples?: unknown[];
}

/**
 * `x-trim: true` marks a text the server trims before it checks the limits: the contract's limits
 * apply after trimming. The server's validator trims in place (http/validation.ts); a generic
 * validator ignores the keyword and is at most stricter about padding.
 */
export const TRIM = 'x-trim';

/** A text the server trims and requires non-empty. */
export const RequiredText = (maxLength: number, options: TextOptions = {}) =>
  Type.String({ [TRIM]: true, minLength: 1, maxLength, pattern: NOT_BLANK, ...options });

/** A text the server trims; it may be empty. */
export const OptionalText = (maxLength: number, options: TextOptions = {}) =>
  Type.String({ [TRIM]: true, maxLength, ...options });
