/**
 * Registers the site's `prism.additionalLanguages` on the Prism that code blocks highlight
 * with, when the code block's module first loads (what the classic theme's start-up module
 * did for every page: src/plugins/prism-off-startup.ts).
 */
import { Prism } from 'prism-react-renderer';
import prismIncludeLanguages from '@theme/prism-include-languages';

prismIncludeLanguages(Prism);
