import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../../test/render';
import { LimitReached } from './LimitReached';

describe('LimitReached', () => {
  it('says the day the free credits return, as the server gives it', () => {
    renderWithProviders(<LimitReached limit={3} resetsAt="2026-12-01T00:00:00Z" />);
    expect(screen.getByTestId('limit-reset')).toHaveTextContent('Your free credits reset on December 1.');
  });

  it('without the date from the server it says next month', () => {
    renderWithProviders(<LimitReached limit={3} />);
    expect(screen.getByTestId('limit-reset')).toHaveTextContent('Your free credits reset next month.');
  });
});
