import { describe, expect, it } from 'vitest';
import { tsQuery } from '../../src/db/repositories/search-postgres.js';
import { ftsQuery } from '../../src/db/repositories/search-sqlite.js';
import { canonicalQuery, parseSearchQuery } from '../../src/domain/search/search-query.js';
import { buildSnippet, toMarks } from '../../src/domain/search/search-snippet.js';

describe('search query parsing', () => {
  it('makes words, phrases and exclusions, the last plain word a prefix', () => {
    const terms = parseSearchQuery('Deploy "staging server" -flaky -"old box" fix');
    expect(terms).toEqual([
      { tokens: ['deploy'], excluded: false, prefix: false },
      { tokens: ['staging', 'server'], excluded: false, prefix: false },
      { tokens: ['flaky'], excluded: true, prefix: false },
      { tokens: ['old', 'box'], excluded: true, prefix: false },
      { tokens: ['fix'], excluded: false, prefix: true },
    ]);
    expect(ftsQuery(terms)).toBe('("deploy" "staging server" "fix"*) NOT "flaky" NOT "old box"');
    expect(tsQuery(terms)).toBe(
      "'deploy' & ('staging' <-> 'server') & 'fix':* & !'flaky' & !('old' <-> 'box')",
    );
  });

  it('keeps only letters and digits: no query syntax of either database gets through', () => {
    const terms = parseSearchQuery(`a'b:* & "c\\" NEAR(d) foo-bar`);
    for (const term of terms) for (const token of term.tokens) expect(token).toMatch(/^[\p{L}\p{N}\p{M}]+$/u);
    expect(ftsQuery(terms)).not.toMatch(/NEAR|\\|:/);
    expect(terms.at(-1)).toEqual({ tokens: ['foo', 'bar'], excluded: false, prefix: true });
  });

  it('takes a last word of one or two letters whole, not as a prefix', () => {
    expect(parseSearchQuery('deploy ab').at(-1)?.prefix).toBe(false);
    expect(parseSearchQuery('deploy abc').at(-1)?.prefix).toBe(true);
  });

  it('refuses nothing to find, and over 200 characters', () => {
    for (const q of ['', '   ', '-only', '!!! ???', '"" -x'])
      expect(() => parseSearchQuery(q), q).toThrow(/`q`/);
    expect(() => parseSearchQuery('é'.repeat(201))).toThrow(/200/);
    expect(parseSearchQuery('é'.repeat(200))).toHaveLength(1);
  });

  it('gives one canonical form to queries the index reads alike', () => {
    expect(canonicalQuery(parseSearchQuery('Deploy  fix'))).toBe(
      canonicalQuery(parseSearchQuery('deploy fix')),
    );
    expect(canonicalQuery(parseSearchQuery('deploy fix'))).not.toBe(
      canonicalQuery(parseSearchQuery('fix deploy')),
    );
  });
});

describe('search snippets', () => {
  const terms = (q: string) => parseSearchQuery(q);

  it('marks matched words (prefixes, phrases) and cuts around the best window', () => {
    const long = `${'filler '.repeat(40)}the deploy button misbehaves on the staging server today ${'tail '.repeat(40)}`;
    const snippet = buildSnippet([long], terms('"staging server" depl'));
    expect(snippet).toMatch(/^… /);
    expect(snippet).toMatch(/ …$/);
    expect(snippet).toContain('[[deploy]] button misbehaves on the [[staging]] [[server]]');
  });

  it('prefers the description, then tags, then the title', () => {
    expect(buildSnippet(['Deploy it', 'infra', 'Nothing here'], terms('deploy'))).toBe('[[Deploy]] it');
    expect(buildSnippet(['Deploy it', 'infra', 'Then deploy.'], terms('deploy'))).toBe('Then [[deploy]].');
  });

  it('folds case and accents like the index', () => {
    expect(buildSnippet(['Le Café est ouvert'], terms('cafe'))).toBe('Le [[Café]] est ouvert');
  });

  it('never lets brackets of the text read as marks', () => {
    const snippet = buildSnippet(['see [[wiki]] and [x] then [xylophone]]'], terms('xylophone'));
    expect(snippet.match(/\[\[/g)).toHaveLength(1);
    expect(snippet.match(/\]\]/g)).toHaveLength(1);
    expect(snippet.replaceAll('\u200B', '')).toBe('see [[wiki]] and [x] then [[[xylophone]]]');
    expect(toMarks('a\uE000b\uE001c')).toBe('a[[b]]c');
  });
});
