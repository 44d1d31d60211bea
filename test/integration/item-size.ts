/**
 * An item's size as DynamoDB bills it (developer guide, "Item sizes and formats"): attribute
 * names and strings as UTF-8 bytes; a number about one byte per two significant digits plus one;
 * null and booleans one byte; a map or list 3 bytes plus one per element plus its elements (a
 * map's keys count as names). A write costs one unit per started KB of the item, in the table
 * and again in each index the item is in (an index copy of an ALL projection is the whole item);
 * each item of the table or an index stores 100 bytes of overhead besides.
 */
const utf8 = (text: string) => Buffer.byteLength(text, 'utf8');

function numberSize(value: number): number {
  const digits = String(Math.abs(value)).replace(/e.*$/i, '').replace('.', '').replace(/^0+/, '').replace(/0+$/, '');
  return Math.ceil(Math.max(1, digits.length) / 2) + 1;
}

export function valueSize(value: unknown): number {
  if (value === null || value === undefined || typeof value === 'boolean') return 1;
  if (typeof value === 'string') return utf8(value);
  if (typeof value === 'number') return numberSize(value);
  if (Array.isArray(value)) return 3 + value.reduce((sum: number, entry) => sum + 1 + valueSize(entry), 0);
  if (typeof value === 'object')
    return 3 + Object.entries(value).reduce((sum, [name, entry]) => sum + 1 + utf8(name) + valueSize(entry), 0);
  throw new Error(`no DynamoDB size for ${typeof value}`);
}

/** The item's size in bytes: every attribute's name and value. */
export const itemSize = (item: Record<string, unknown>) =>
  Object.entries(item).reduce((sum, [name, value]) => sum + utf8(name) + valueSize(value), 0);

/** Write units of one copy of an item (one per started KB). */
export const writeUnits = (bytes: number) => Math.max(1, Math.ceil(bytes / 1024));

/** What DynamoDB stores per item besides its attributes, in the table and in each index. */
export const ITEM_OVERHEAD_BYTES = 100;
