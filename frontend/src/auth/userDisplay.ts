// How the user menu names a user.

interface Named {
  displayName?: string | null;
  email?: string | null;
}

/** The display name, else the part of the email before the @ sign, else 'User'. */
export function userDisplayName(user: Named | null | undefined): string {
  const name = user?.displayName?.trim();
  if (name) return name;
  const prefix = user?.email?.split('@')[0]?.trim();
  return prefix || 'User';
}

/**
 * Capitalized first letters of the first two words of the display name;
 * with no name the first letter of the email, else 'U'.
 */
export function userInitials(user: Named | null | undefined): string {
  const words = (user?.displayName ?? '').trim().split(/\s+/).filter(Boolean);
  if (words.length > 0) {
    return words
      .slice(0, 2)
      .map((w) => Array.from(w)[0].toUpperCase())
      .join('');
  }
  const first = Array.from((user?.email ?? '').trim())[0];
  return first ? first.toUpperCase() : 'U';
}
