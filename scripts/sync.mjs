// `npm run sync`: fetches the package sections that site/sources.yaml names into the content
// cache (.cache/sources/), which the site build reads. A version already there is not
// fetched again. `npm run sync -- --only <id>` syncs one source; `--if-needed` only when the
// cache was not made from this sources file (what `npm start` and `npm run build` do).
import { parseArgs } from 'node:util';

import { syncSources } from './build-if-stale.mjs';

try {
  const { values } = parseArgs({
    options: { only: { type: 'string', multiple: true }, 'if-needed': { type: 'boolean', default: false } },
  });
  await syncSources({ only: values.only, force: !values['if-needed'] });
} catch (error) {
  console.error(`Sync failed: ${error.message}`);
  process.exit(1);
}
