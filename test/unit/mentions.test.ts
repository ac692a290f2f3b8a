import { describe, expect, it } from 'vitest';
import { findMentions, type Mentioned } from '../../src/domain/mentions/mentions.js';

const grace: Mentioned = { id: 'usr_1', type: 'person', name: 'Grace' };
const graceHopper: Mentioned = { id: 'usr_2', type: 'person', name: 'Grace Hopper' };
const claude: Mentioned = { id: 'agt_1', type: 'agent', name: 'Claude' };
const members = [grace, graceHopper, claude];
const ids = (text: string) => findMentions(text, members).map((m) => m.id);

describe('mentions', () => {
  it('finds @name case-insensitively, each member once, in order', () => {
    expect(ids('@claude please ask @Grace, then @CLAUDE again.')).toEqual(['agt_1', 'usr_1']);
    expect(ids('@Claude')).toEqual(['agt_1']);
    expect(ids('(@claude)')).toEqual(['agt_1']);
  });

  it('takes the longest name that matches', () => {
    expect(ids('thanks @grace hopper!')).toEqual(['usr_2']);
    expect(ids('thanks @grace, hopper')).toEqual(['usr_1']);
  });

  it('needs the whole name: @Claudette and @Grace_x are nobody', () => {
    expect(ids('@Claudette @Grace_x @Claude2')).toEqual([]);
  });

  it('ignores e-mail addresses, inline code and fenced code', () => {
    expect(ids('mail grace@claude.example or me@Grace')).toEqual([]);
    expect(ids('run `npm test @claude` then')).toEqual([]);
    expect(ids('```\n@grace\n```\nbut @claude')).toEqual(['agt_1']);
    expect(ids('```\nunclosed @grace')).toEqual([]);
  });

  it('finds nothing without @ or without members', () => {
    expect(ids('Claude and Grace')).toEqual([]);
    expect(findMentions('@Claude', [])).toEqual([]);
  });
});
