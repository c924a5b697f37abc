// Client-side checks of the authentication form: password length, matching confirmation, reset email.

export const MIN_PASSWORD_LENGTH = 6;

/** A new password and its confirmation; null when valid. */
export function validateNewPassword(password: string, confirm: string): string | null {
  if (password !== confirm) return "Passwords don't match";
  if (password.length < MIN_PASSWORD_LENGTH) return 'Password must be at least 6 characters';
  return null;
}

export function validateSignUp(fields: { displayName: string; password: string; confirm: string }): string | null {
  return (
    validateNewPassword(fields.password, fields.confirm) ??
    (fields.displayName.trim() === '' ? 'Please enter your display name' : null)
  );
}

export function validateResetEmail(email: string): string | null {
  return email.trim() === '' ? 'Please enter your email address' : null;
}
