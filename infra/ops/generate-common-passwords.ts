import { writeFileSync } from 'node:fs';
import { brotliCompressSync, constants } from 'node:zlib';
import { dictionary } from '@zxcvbn-ts/language-common';

/**
 * Writes functions/accounts/common-passwords.br: the 10,000 most common passwords of
 * @zxcvbn-ts/language-common (frequency order), lower-cased, sorted, newline-joined and
 * brotli-compressed (~24 KB instead of the package's ~400 KB in every bundle). Every Lambda
 * asset carries the file next to index.js (infra/constructs/bundling.ts); only setting a
 * password reads it. Run `npx tsx infra/ops/generate-common-passwords.ts` after upgrading the
 * package; functions/accounts/passwords.test.ts fails when the file is stale (docs/lean-builds.md).
 */
export const COMMON_PASSWORD_COUNT = 10_000;

export function commonPasswordList(): string[] {
  const top = dictionary['passwords-common'].slice(0, COMMON_PASSWORD_COUNT).map((p) => p.toLowerCase());
  return [...new Set(top)].sort();
}

function encodeList(list: string[]): Buffer {
  return brotliCompressSync(Buffer.from(list.join('\n'), 'utf8'), {
    params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT },
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const list = commonPasswordList();
  const target = new URL('../../functions/accounts/common-passwords.br', import.meta.url);
  writeFileSync(target, encodeList(list));
  console.log(`wrote ${list.length} passwords to ${target.pathname}`);
}
