// Shared output conventions: UTC date-times with `Z`, ids of integer records as strings.
export const iso = (date: Date): string => date.toISOString();
export const isoOrNull = (date: Date | null): string | null => (date ? date.toISOString() : null);
export const idString = (id: number | bigint): string => String(id);
