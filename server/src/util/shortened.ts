// Headlines stay under 100 characters however long the names they quote (templated upstream names, include paths).
/**
 * `text` cut to `max` characters in the middle (`{{ $.APP }}-…-{{ $port }}`): names and addresses in headlines stay
 * recognisable without pushing the headline past its 100 characters. Whole text when it fits.
 */
export function shortened(text: string, max = 32): string {
  if (text.length <= max) return text;
  const head = Math.ceil((max - 1) / 2);
  return `${text.slice(0, head)}…${text.slice(text.length - (max - 1 - head))}`;
}

/** `a, b and 2 more`: at most `shown` items of a list named in a headline. */
export function listed(items: readonly string[], shown = 3): string {
  if (items.length <= shown) return items.join(', ');
  return `${items.slice(0, shown).join(', ')} and ${items.length - shown} more`;
}
