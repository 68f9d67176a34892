import type { OptionValidationContext } from '@docusaurus/types';
import { Joi } from '@docusaurus/utils-validation';

export interface PluginOptions {
  /** The part of a page that search indexes: the page's own text, not the navbar, sidebar or footer. */
  searchRootSelector: string;
  /** Parts inside it that are not the page's text: anchors, breadcrumbs, the mobile TOC, pager, buttons. */
  searchExcludeSelectors: string[];
  /** The pages' language, for stemming: one index in it, whatever a page's lang attribute says. */
  searchLanguage: string;
  /** Files every visitor and crawler may fetch although no public page loads them (robots.txt, the sitemap). */
  alwaysPublic: string[];
  /** Files compressed at a time: brotli at quality 11 dominates the step; a few keep libuv's threads busy. */
  compressionConcurrency: number;
}

export type Options = Partial<PluginOptions>;

export const DEFAULT_OPTIONS: PluginOptions = {
  searchRootSelector: 'article',
  searchExcludeSelectors: [
    '.hash-link',
    '.theme-doc-breadcrumbs',
    '.theme-doc-toc-mobile',
    '.theme-doc-footer',
    '.theme-doc-version-badge',
    '.pagination-nav',
    'button',
    'nav',
  ],
  searchLanguage: 'en',
  alwaysPublic: ['/robots.txt', '/sitemap.xml', '/img/favicon.svg', '/favicon.ico'],
  compressionConcurrency: 8,
};

const PluginOptionSchema = Joi.object<PluginOptions>({
  searchRootSelector: Joi.string().trim().min(1).default(DEFAULT_OPTIONS.searchRootSelector),
  searchExcludeSelectors: Joi.array().items(Joi.string().trim().min(1)).default(DEFAULT_OPTIONS.searchExcludeSelectors),
  searchLanguage: Joi.string()
    .pattern(/^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/)
    .message('"searchLanguage" must be a language tag such as "en" or "pt-BR"')
    .default(DEFAULT_OPTIONS.searchLanguage),
  alwaysPublic: Joi.array()
    .items(
      Joi.string()
        .pattern(/^\/[^?#]*$/)
        .message('"alwaysPublic" lists URL paths of build files, each starting with "/"'),
    )
    .default(DEFAULT_OPTIONS.alwaysPublic),
  compressionConcurrency: Joi.number().integer().min(1).max(64).default(DEFAULT_OPTIONS.compressionConcurrency),
});

export function validateOptions({ validate, options }: OptionValidationContext<Options, PluginOptions>): PluginOptions {
  return validate(PluginOptionSchema, options);
}

/**
 * A folder that keeps what a build step made between builds, under the hash of its inputs
 * and `salt`: what else decides the output (the site's dependencies, whose versions the
 * site's package.json pins). What a build did not use is removed from it.
 */
export interface BuildCache {
  dir: string;
  salt: string;
}
