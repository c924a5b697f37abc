import { describe, expect, it } from 'vitest';
import { greeting } from './Dashboard';

describe('dashboard greeting', () => {
  it("welcomes an account's first dashboard, welcomes back afterwards", () => {
    expect(greeting('Ada', true)).toBe('Welcome, Ada!');
    expect(greeting('Ada', false)).toBe('Welcome back, Ada!');
    expect(greeting('', true)).toBe('Welcome!');
  });
});
