import { packSearchFiles } from '@portal/search';

import type { Site, SiteFile } from '../site.js';

/**
 * The files `bundles` start a search with, in one body (packages/search/files.js), each
 * only when `may` lets the reader read it; in the gzip form the build made of it, where it did.
 */
export function searchFilesBody(
  site: Site,
  bundles: readonly string[],
  may: (file: SiteFile) => boolean,
): Uint8Array<ArrayBuffer> {
  return packSearchFiles(
    bundles.flatMap((bundle) =>
      site
        .searchStartFiles(bundle)
        .filter(may)
        .map((file) =>
          file.bodies.gzip
            ? ([file.url, file.bodies.gzip, 'gzip'] as const)
            : ([file.url, file.bodies.identity ?? Buffer.alloc(0)] as const),
        ),
    ),
  );
}
