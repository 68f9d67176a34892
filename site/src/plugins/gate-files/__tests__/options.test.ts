import type { OptionValidationContext } from '@docusaurus/types';
import { normalizePluginOptions } from '@docusaurus/utils-validation';
import { describe, expect, it } from 'vitest';

import { DEFAULT_OPTIONS, validateOptions, type Options, type PluginOptions } from '../options';

// Docusaurus's own validator, which adds the plugin `id`, as Docusaurus calls it.
const normalize = normalizePluginOptions as OptionValidationContext<Options, PluginOptions>['validate'];
const validate = (options: Options): unknown => validateOptions({ validate: normalize, options });

describe('the gate-files options', () => {
  it('are the defaults when none are given', () => {
    expect(validate({})).toEqual({ ...DEFAULT_OPTIONS, id: 'default' });
  });

  it('keep what the site sets', () => {
    const options = { searchRootSelector: 'main', searchLanguage: 'pt-BR', compressionConcurrency: 2 };
    expect(validate(options)).toEqual({ ...DEFAULT_OPTIONS, ...options, id: 'default' });
  });

  it.each([
    [{ searchRootSelector: '' }, /"searchRootSelector" is not allowed to be empty/],
    [{ searchLanguage: 'English' }, /"searchLanguage" must be a language tag/],
    [{ alwaysPublic: ['robots.txt'] }, /"alwaysPublic" lists URL paths of build files, each starting with "\/"/],
    [{ compressionConcurrency: 0 }, /"compressionConcurrency" must be greater than or equal to 1/],
    [{ searchExcludeSelectors: 'nav' }, /"searchExcludeSelectors" must be an array/],
    [{ sitemap: true }, /"sitemap" is not allowed/],
  ])('refuse %j', (options, message) => {
    expect(() => validate(options as Options)).toThrow(message);
  });
});
