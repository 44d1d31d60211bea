import { parseInlineText } from '../utils/inline-text';

/** Section text with its links; links leave the app in a new tab without passing the opener. */
export function InlineText({ text }: { text: string }) {
  return (
    <>
      {parseInlineText(text).map((part, index) =>
        part.kind === 'text' ? (
          part.text
        ) : (
          <a key={index} href={part.href} target={part.href.startsWith('mailto:') ? undefined : '_blank'} rel="noopener noreferrer">
            {part.text}
          </a>
        ),
      )}
    </>
  );
}
