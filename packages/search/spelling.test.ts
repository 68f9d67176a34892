import { describe, expect, it } from 'vitest';

import { countWords, oneEditFrom, Vocabulary } from './spelling.js';

const vocabulary = new Vocabulary([
  countWords([
    'The Shaka adapter wraps Shaka Player. useFocusable makes a component focusable.',
    'Tizen and webOS: the player adapters for Samsung and LG. Focusable, focusable, focusable.',
  ]),
  // A second bundle's list (a partner's merged search): its words count too.
  { conviva: 3, shape: 1 },
]);

describe('countWords', () => {
  it('counts the word parts of four letters or more, most frequent first', () => {
    const words = countWords(['Player-adapter-dash.js plays; the player plays', 'an LG TV']);
    expect(words).toEqual({ player: 2, plays: 2, adapter: 1, dash: 1 });
    expect(Object.keys(words)[0]).toBe('player');
  });
});

describe('oneEditFrom', () => {
  it('makes every insertion, deletion, change and swap of neighbours, not the word itself', () => {
    const edits = oneEditFrom('shaka');
    for (const word of ['shak', 'shakaa', 'shara', 'hsaka', 'shaak', 'xshaka']) expect(edits).toContain(word);
    expect(edits).not.toContain('shaka');
    expect(edits).not.toContain('kasha');
  });
});

describe('Vocabulary.correct', () => {
  it.each([
    ['shaak', 'shaka', 'two letters swapped'],
    ['focusble', 'focusable', 'a letter left out'],
    ['adapterr', 'adapter', 'a letter too many'],
    ['convive', 'conviva', 'a letter changed, in another bundle’s list'],
  ])('corrects %s to %s (%s)', (typed, word) => {
    expect(vocabulary.correct(typed)).toBe(word);
  });

  it('leaves a word of fewer than five letters alone', () => {
    expect(vocabulary.correct('tizn')).toBe('tizn');
  });

  it('leaves a word, and the beginning of one, as typed', () => {
    expect(vocabulary.correct('samsung')).toBe('samsung');
    expect(vocabulary.correct('focusab')).toBe('focusab');
  });

  it('finds nothing for nonsense: no word is one edit from it', () => {
    expect(vocabulary.correct('xyzzyqq')).toBe('xyzzyqq');
    // Two edits from "shaka" (letters swapped that are not neighbours) is too far.
    expect(vocabulary.correct('skaha')).toBe('skaha');
  });

  it('picks the most frequent of several words one edit away', () => {
    const words = new Vocabulary([{ player: 9, plyer: 1, played: 2 }]);
    expect(words.correct('playe')).toBe('playe'); // the beginning of "player"
    expect(new Vocabulary([{ player: 9, slayer: 1 }]).correct('flayer')).toBe('player');
  });
});

describe('Vocabulary.commonest', () => {
  it('is the word the bundles have most often, counted over all of them', () => {
    expect(new Vocabulary([{ shaka: 3, player: 2 }, { player: 2 }]).commonest()).toBe('player');
  });
});

describe('Vocabulary.correctQuery', () => {
  it('corrects each misspelt word of the query and keeps the others', () => {
    expect(vocabulary.correctQuery('shaak adapterr')).toBe('shaka adapter');
    expect(vocabulary.correctQuery('useFocusble')).toBe('usefocusable');
  });

  it('gives back the query as typed when no word needed a correction', () => {
    expect(vocabulary.correctQuery('player-adapter-dash.js')).toBe('player-adapter-dash.js');
    expect(vocabulary.correctQuery('xyzzyqq')).toBe('xyzzyqq');
  });

  it('corrects nothing without a word list (a bundle built before them)', () => {
    expect(new Vocabulary([]).correctQuery('shaak')).toBe('shaak');
  });
});
