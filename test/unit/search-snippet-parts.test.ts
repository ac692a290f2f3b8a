import { describe, expect, it } from 'vitest';
import { toMarks } from '../../src/domain/search/search-snippet.js';
import { snippetAddsToTitle, snippetParts } from '../../web/src/components/command-palette-snippet-parts.js';

/** How the web UI splits a search snippet into text and marked words (rendered as text, never HTML). */
describe('snippetParts', () => {
  it('splits at [[ and the next ]], left to right', () => {
    expect(snippetParts('… the [[deploy]] button on [[staging]] …')).toEqual([
      { text: '… the ', marked: false },
      { text: 'deploy', marked: true },
      { text: ' button on ', marked: false },
      { text: 'staging', marked: true },
      { text: ' …', marked: false },
    ]);
  });

  it('keeps markup as text parts', () => {
    expect(snippetParts('[[quokka]] <img src=x onerror="alert(1)"> end')).toEqual([
      { text: 'quokka', marked: true },
      { text: ' <img src=x onerror="alert(1)"> end', marked: false },
    ]);
  });

  it("keeps the text's own brackets, which the server separated from its marks", () => {
    // The domain's own escaping: `[[x]]` written in a comment is not a mark.
    const snippet = toMarks('see [[x]] and \uE000word\uE001');
    const parts = snippetParts(snippet);
    expect(parts.filter((part) => part.marked).map((part) => part.text)).toEqual(['word']);
    expect(
      parts
        .map((part) => part.text)
        .join('')
        .replaceAll('\u200B', ''),
    ).toBe('see [[x]] and word');
  });

  it('leaves an unclosed mark as text, and an empty snippet empty', () => {
    expect(snippetParts('a [[b')).toEqual([{ text: 'a [[b', marked: false }]);
    expect(snippetParts('')).toEqual([]);
  });

  it('says whether a snippet adds to the title', () => {
    expect(snippetAddsToTitle('[[Wombat]] census', 'Wombat census')).toBe(false);
    expect(snippetAddsToTitle('', 'Wombat census')).toBe(false);
    expect(snippetAddsToTitle('Saw [[wombat]] 1', 'Count 1')).toBe(true);
  });
});
