import { act, fireEvent, screen, within } from '@testing-library/react';
import Tooltip from '@mui/material/Tooltip';
import { describe, expect, it, vi } from 'vitest';
import { AppLayout } from './AppLayout';
import { FOOTER_TAGLINE } from './Footer';
import { isActiveRoute } from './TopNav';
import { renderWithProviders } from '../test/render';

describe('top navigation and footer', () => {
  it('highlights the current route in the signed-out navigation', () => {
    renderWithProviders(<AppLayout>page</AppLayout>, { path: '/pricing' });
    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect(within(nav).getByRole('link', { name: 'Pricing' })).toHaveAttribute('aria-current', 'page');
    expect(within(nav).getByRole('link', { name: 'Features' })).not.toHaveAttribute('aria-current');
    expect(screen.getByRole('link', { name: 'Sign In' })).toHaveAttribute('href', '/login');
    expect(screen.getByRole('link', { name: 'Get Started' })).toHaveAttribute('href', '/login?mode=signup');
    expect(screen.getByRole('link', { name: 'Layerfix home' })).toHaveAttribute('href', '/');
  });

  it('renders the footer links, current year and tagline', () => {
    renderWithProviders(<AppLayout>page</AppLayout>);
    const footer = screen.getByRole('contentinfo');
    const hrefs = within(footer)
      .getAllByRole('link')
      .map((a) => a.getAttribute('href'));
    expect(hrefs).toEqual(['/privacy-policy', '/terms-of-service', '/pricing', '/features']);
    expect(within(footer).getByText(FOOTER_TAGLINE)).toBeInTheDocument();
    expect(FOOTER_TAGLINE).toBe('AI-powered 3D printer troubleshooting for makers worldwide');
    expect(footer).toHaveTextContent(`© ${new Date().getFullYear()} Layerfix`);
  });

  it('matches routes for highlighting', () => {
    expect(isActiveRoute('/', '/')).toBe(true);
    expect(isActiveRoute('/features', '/')).toBe(false);
    expect(isActiveRoute('/issues/4', '/issues')).toBe(true);
    expect(isActiveRoute('/issuesx', '/issues')).toBe(false);
  });
});

describe('tooltips', () => {
  it('open after 700 ms by the theme default', async () => {
    vi.useFakeTimers();
    try {
      renderWithProviders(
        <Tooltip title="Helpful hint">
          <button type="button">target</button>
        </Tooltip>,
      );
      const target = screen.getByText('target');
      act(() => {
        fireEvent.mouseOver(target);
      });
      act(() => {
        vi.advanceTimersByTime(650);
      });
      expect(screen.queryByRole('tooltip')).not.toBeInTheDocument();
      act(() => {
        vi.advanceTimersByTime(100);
      });
      expect(screen.getByRole('tooltip')).toHaveTextContent('Helpful hint');
    } finally {
      vi.useRealTimers();
    }
  });
});
