import notoSansBoldUrl from '@expo-google-fonts/noto-sans/700Bold/NotoSans_700Bold.ttf?url';
import notoSansRegularUrl from '@expo-google-fonts/noto-sans/400Regular/NotoSans_400Regular.ttf?url';
import notoSansScBoldUrl from '@expo-google-fonts/noto-sans-sc/700Bold/NotoSansSC_700Bold.ttf?url';

/**
 * The TrueType fonts the certificate PDF embeds (jsPDF keeps only the glyphs it uses). Noto Sans
 * covers Latin (Polish, Vietnamese…), Greek and Cyrillic at about 600 KB a weight; Chinese and
 * Japanese need Noto Sans SC (10 MB), fetched only for a text that has such characters.
 */
export interface CertificateFonts {
  regular: Uint8Array;
  bold: Uint8Array;
  /** Set when some text of the certificate is Chinese or Japanese. */
  cjk?: Uint8Array;
}

// Han ideographs, kana and their punctuation and full-width forms: beyond Noto Sans.
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\u3000-\u303f\uff00-\uffef]/u;

export const needsCjkFont = (text: string) => CJK.test(text);

async function fetchFont(url: string): Promise<Uint8Array> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`font ${url}: ${response.status}`);
  return new Uint8Array(await response.arrayBuffer());
}

/** Fetches the fonts the given texts need (the files are static assets of the site). */
export async function loadCertificateFonts(texts: string[]): Promise<CertificateFonts> {
  const [regular, bold, cjk] = await Promise.all([
    fetchFont(notoSansRegularUrl),
    fetchFont(notoSansBoldUrl),
    texts.some(needsCjkFont) ? fetchFont(notoSansScBoldUrl) : undefined,
  ]);
  return { regular, bold, cjk };
}
