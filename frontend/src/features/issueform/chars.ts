// What makers type is accepted: letters of any language, digits, punctuation, symbols (° % & + # = ~ ×
// * @ < >) and emoji. Only characters nobody means to type are refused, and the message names the
// one found, exactly as the server does (server/text.go): control characters (tab and line breaks
// are fine in a description), invisible formatting characters (zero-width spaces, direction
// overrides, soft hyphens; the zero-width joiner and variation selector inside emoji are fine),
// line separators and non-characters.

function hex(cp: number): string {
  return `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;
}

/** Describes the first refused character of s, or returns null when every character is fine. */
export function invalidChar(s: string, multiline: boolean): string | null {
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    if (cp >= 0xd800 && cp <= 0xdfff) return 'bytes that are not valid UTF-8 text';
    if (ch === '\n' || ch === '\r' || ch === '\t') {
      if (!multiline) return `a line break or tab (${hex(cp)})`;
      continue;
    }
    if (/\p{Cc}/u.test(ch)) return `a control character (${hex(cp)})`;
    if (cp === 0x200d || cp === 0xfe0f) continue;
    if (/\p{Cf}/u.test(ch)) return `an invisible formatting character (${hex(cp)})`;
    if (cp === 0x2028 || cp === 0x2029) return `a line separator (${hex(cp)})`;
    if ((cp & 0xfffe) === 0xfffe || (cp >= 0xfdd0 && cp <= 0xfdef)) return `a non-character (${hex(cp)})`;
  }
  return null;
}

/** The field message for a refused character. */
export function charsMessage(label: string, found: string): string {
  return `${label} contains invalid characters: ${found}. Remove it and try again.`;
}

/** The message for a field whose text holds a refused character, or null. */
export function charsError(label: string, value: string, multiline = false): string | null {
  const found = invalidChar(value, multiline);
  return found ? charsMessage(label, found) : null;
}
