import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';

// pdf.js expects Node 22's Promise.withResolvers; the tests also run on Node 20.
(Promise as unknown as { withResolvers: unknown }).withResolvers ??= function withResolvers<T>() {
  let resolve!: (value: T) => void;
  let reject!: (reason: unknown) => void;
  const promise = new Promise<T>((yes, no) => ((resolve = yes), (reject = no)));
  return { promise, resolve, reject };
};

/** What a PDF reader gets from a file: its page count and sizes, and its first page's text runs and link targets. */
export async function readPdf(bytes: Uint8Array) {
  const pdf = await getDocument({ data: bytes, verbosity: 0 }).promise;
  const sizes = await Promise.all(
    Array.from({ length: pdf.numPages }, async (_, index) => {
      const [, , width, height] = (await pdf.getPage(index + 1)).view;
      return { width, height };
    }),
  );
  const first = await pdf.getPage(1);
  const content = await first.getTextContent();
  const lines = content.items.flatMap((item) => ('str' in item && item.str.trim() ? [item.str] : []));
  const annotations = (await first.getAnnotations()) as Array<{ subtype: string; url?: string }>;
  const links = annotations.filter((annotation) => annotation.subtype === 'Link').map((link) => link.url);
  return { pages: sizes, lines, links };
}
