import { describe, expect, it } from 'vitest';
import { validateNewPassword, validateResetEmail, validateSignUp } from './validation';

describe('authentication form validation', () => {
  it('checks the sign-up fields', () => {
    expect(validateSignUp({ displayName: 'Ada', password: 'secret1', confirm: 'secret2' })).toBe("Passwords don't match");
    expect(validateSignUp({ displayName: 'Ada', password: 'abc12', confirm: 'abc12' })).toBe(
      'Password must be at least 6 characters',
    );
    expect(validateSignUp({ displayName: '   ', password: 'abc123', confirm: 'abc123' })).toBe('Please enter your display name');
    expect(validateSignUp({ displayName: 'Ada', password: 'abc123', confirm: 'abc123' })).toBeNull();
  });

  it('checks a new password and the reset email', () => {
    expect(validateNewPassword('123456', '123456')).toBeNull();
    expect(validateNewPassword('12345', '12345')).toBe('Password must be at least 6 characters');
    expect(validateResetEmail(' ')).toBe('Please enter your email address');
    expect(validateResetEmail('a@b.co')).toBeNull();
  });
});
