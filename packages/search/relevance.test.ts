import { describe, expect, it } from 'vitest';

import { answersQuery, matchedWords, requiredPrefix, wordParts } from './relevance.js';

describe('answersQuery', () => {
  it('rejects a page Pagefind found only through a far shorter prefix of the word', () => {
    // What Pagefind returned for these: "x" in "## x.y.z", "x," in "x, y, width", "Munich", "ar".
    expect(answersQuery('xyzzyqq', ['x.y.z'])).toBe(false);
    expect(answersQuery('xyzzyqq', ['x,'])).toBe(false);
    expect(answersQuery('musk', ['Munich'])).toBe(false);
    expect(answersQuery('ark', ['ar'])).toBe(false);
  });

  it('keeps exact, stemmed and half-typed matches', () => {
    expect(answersQuery('useFocusable', ['`useFocusable({'])).toBe(true);
    expect(answersQuery('players', ['player'])).toBe(true);
    expect(answersQuery('installation', ['installing'])).toBe(true);
    expect(answersQuery('useFocu', ['useFocusable'])).toBe(true);
  });

  it('matches package names with dots, dashes and scopes part by part', () => {
    expect(answersQuery('player-adapter-dash.js', ['@noriginmedia/player-adapter-dash.js'])).toBe(true);
    expect(answersQuery('dash.js', ['dash.js,'])).toBe(true);
    expect(answersQuery('hls.js', ['dash.js'])).toBe(false);
  });

  it('needs every word of the query', () => {
    expect(answersQuery('tizen xyzzyqq', ['Tizen', 'x'])).toBe(false);
    expect(answersQuery('tizen seek', ['Tizen', 'seek()'])).toBe(true);
  });

  it('ignores case and diacritics', () => {
    expect(answersQuery('CAFÉ', ['cafe'])).toBe(true);
  });
});

describe('requiredPrefix', () => {
  it('asks for all of a short word and all but five letters of a long one', () => {
    expect(requiredPrefix('js')).toBe(2);
    expect(requiredPrefix('seek')).toBe(3);
    expect(requiredPrefix('xyzzyqq')).toBe(3);
    expect(requiredPrefix('installation')).toBe(7);
  });
});

describe('wordParts and matchedWords', () => {
  it('splits on anything but letters and digits', () => {
    expect(wordParts('@noriginmedia/player-adapter-dash.js')).toEqual([
      'noriginmedia',
      'player',
      'adapter',
      'dash',
      'js',
    ]);
  });

  it('picks the words at the locations, counting as Pagefind does', () => {
    expect(matchedWords('The  adapter\nwraps dash.js for Tizen', [1, 3])).toEqual(['adapter', 'dash.js']);
  });
});
