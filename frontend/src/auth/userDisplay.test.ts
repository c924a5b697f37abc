import { describe, expect, it } from 'vitest';
import { userDisplayName, userInitials } from './userDisplay';

describe('user menu names', () => {
  it.each([
    [{ displayName: 'Ada Lovelace', email: 'ada@example.com' }, 'Ada Lovelace'],
    [{ displayName: '  ', email: 'grace.hopper@example.com' }, 'grace.hopper'],
    [{ displayName: '', email: '' }, 'User'],
    [null, 'User'],
  ])('display name of %j is %s', (user, name) => {
    expect(userDisplayName(user)).toBe(name);
  });

  it.each([
    [{ displayName: 'ada lovelace byron', email: 'x@example.com' }, 'AL'],
    [{ displayName: 'Prusa', email: 'x@example.com' }, 'P'],
    [{ displayName: '  élodie   martin ', email: '' }, 'ÉM'],
    [{ displayName: '', email: 'grace@example.com' }, 'G'],
    [{ displayName: null, email: null }, 'U'],
    [undefined, 'U'],
  ])('initials of %j are %s', (user, initials) => {
    expect(userInitials(user)).toBe(initials);
  });
});
