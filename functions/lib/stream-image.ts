/**
 * A stream record's image as the table's stream readers use it: every attribute they read is a
 * string (DynamoDB's `{ S }`), read as '' when absent.
 */
export type StreamImage = Record<string, { S?: string } | undefined> | undefined;

export const imageText = (image: StreamImage, name: string): string => image?.[name]?.S ?? '';
