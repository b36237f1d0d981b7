/** Joins class names, skipping falsy ones (the primitives' only helper). */
export function cn(...classes: (string | false | null | undefined)[]): string {
  return classes.filter(Boolean).join(' ');
}
