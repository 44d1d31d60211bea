import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Plugin } from 'vite';

/**
 * A certificate check link shared in a message or a post previews as a card about the
 * certificate, not about the site: link-preview crawlers read the HTML as served and never run
 * the app, and the check address is all a crawler has. The build writes certificates.html, the
 * app's index.html with the check page's title and card; the edge serves it for `/certificates`
 * and `/certificates/{code}` (infra/edge-behaviour.ts) and index.html for every other route.
 * The card is the same for every code: the learner's name stays out of previews.
 */
export const CERTIFICATE_CHECK_HTML = 'certificates.html';

const CHECK_TITLE = 'Certificate check · Career Program';
const CHECK_DESCRIPTION =
  'A certificate of completion of the 4-Week Career Program, issued by Career Program. Open the link to see whose it is and whether it is valid.';

const attribute = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;');

export function certificateCheckHtml(indexHtml: string): string {
  const replaced = indexHtml
    .replace(/<title>[^<]*<\/title>/, `<title>${CHECK_TITLE}</title>`)
    .replace(/(<meta property="og:title" content=")[^"]*"/, `$1${attribute(CHECK_TITLE)}"`)
    .replace(/(<meta property="og:description" content=")[^"]*"/, `$1${attribute(CHECK_DESCRIPTION)}"`)
    .replace(/(<meta name="description" content=")[^"]*"/, `$1${attribute(CHECK_DESCRIPTION)}"`);
  if (!replaced.includes(`<title>${CHECK_TITLE}</title>`) || !replaced.includes(attribute(CHECK_DESCRIPTION)))
    throw new Error('index.html lost the tags the certificate check page replaces');
  return replaced;
}

/** Writes certificates.html beside the built index.html (same scripts, same CSP), from it. */
export function certificateCheckPage(): Plugin {
  return {
    name: 'certificate-check-page',
    apply: 'build',
    // after Vite has written index.html with its hashed script and style tags
    writeBundle(options) {
      const dir = options.dir ?? '';
      writeFileSync(join(dir, CERTIFICATE_CHECK_HTML), certificateCheckHtml(readFileSync(join(dir, 'index.html'), 'utf8')));
    },
  };
}
