// Renders the portal's raster images from their SVG sources, with Debian's Chromium and
// the Inter font from node_modules (nothing from the network):
//   site/brand/card.svg       → site/static/img/social-card.jpg (1200 × 630, link previews)
//   site/static/img/logo.svg  → site/static/favicon.ico (32 × 32, for clients that ask
//                               for /favicon.ico whatever the page says)
// Run it after editing either SVG: `node site/brand/render.mjs`.
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

import { chromium } from '@playwright/test';

import { chromiumArgs, chromiumPath } from '../../scripts/chromium.mjs';

const require = createRequire(import.meta.url);
const file = (path) => fileURLToPath(new URL(path, import.meta.url));
const inter = readFileSync(require.resolve('@fontsource-variable/inter/files/inter-latin-wght-normal.woff2'));
const fontFace = `@font-face{font-family:'Inter Variable';font-weight:100 900;src:url(data:font/woff2;base64,${inter.toString('base64')}) format('woff2')}`;

/** An ICO file holding one PNG image (a form every browser reads). */
function icoOf(png, size) {
  const header = Buffer.alloc(6 + 16);
  header.writeUInt16LE(0, 0); // reserved
  header.writeUInt16LE(1, 2); // type: icon
  header.writeUInt16LE(1, 4); // one image
  header.writeUInt8(size, 6); // width
  header.writeUInt8(size, 7); // height
  header.writeUInt8(0, 8); // no palette
  header.writeUInt8(0, 9); // reserved
  header.writeUInt16LE(1, 10); // colour planes
  header.writeUInt16LE(32, 12); // bits per pixel
  header.writeUInt32LE(png.length, 14); // image size
  header.writeUInt32LE(header.length, 18); // image offset
  return Buffer.concat([header, png]);
}

const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
try {
  const card = await browser.newPage({ viewport: { width: 1200, height: 630 }, deviceScaleFactor: 1 });
  await card.setContent(
    `<!doctype html><style>${fontFace}html,body{margin:0}</style>${readFileSync(file('./card.svg'), 'utf8')}`,
  );
  await card.evaluate(() => document.fonts.ready);
  await card.screenshot({
    path: file('../static/img/social-card.jpg'),
    // A photo-like gradient: as a JPEG it is a fifth of the PNG's size, and link previews take either.
    type: 'jpeg',
    quality: 88,
    clip: { x: 0, y: 0, width: 1200, height: 630 },
  });

  const icon = await browser.newPage({ viewport: { width: 32, height: 32 }, deviceScaleFactor: 1 });
  const logo = readFileSync(file('../static/img/logo.svg'), 'utf8').replace('<svg ', '<svg width="32" height="32" ');
  await icon.setContent(`<!doctype html><style>html,body{margin:0;background:transparent}</style>${logo}`);
  const png = await icon.screenshot({ omitBackground: true, clip: { x: 0, y: 0, width: 32, height: 32 } });
  writeFileSync(file('../static/favicon.ico'), icoOf(png, 32));
  console.log('Wrote site/static/img/social-card.jpg and site/static/favicon.ico');
} finally {
  await browser.close();
}
