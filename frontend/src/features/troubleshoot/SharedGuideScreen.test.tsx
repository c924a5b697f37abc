import { screen } from '@testing-library/react';
import { Route, Routes } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import SharedGuide from '../../pages/SharedGuide';
import { renderWithProviders, stubFetch } from '../../test/render';

function renderGuide(id: string) {
  return renderWithProviders(
    <Routes>
      <Route path="/share/:shareId" element={<SharedGuide />} />
    </Routes>,
    { path: `/share/${id}` },
  );
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('shared guide', () => {
  it('shows the guide read-only with the sign-up prompts', async () => {
    stubFetch({
      '/api/share/abcdefghijklmnopqrstuv': {
        shareId: 'abcdefghijklmnopqrstuv',
        title: 'Stringing from too little retraction',
        createdAt: '2026-11-21T10:00:00Z',
        troubleshootingData: {
          summary: 'Stringing from too little retraction on a Bowden printer.',
          steps: [{ title: 'Tune retraction', description: 'Print a retraction test.', priority: 'high' }],
          additionalTips: ['Dry PETG before printing.'],
        },
      },
    });
    renderGuide('abcdefghijklmnopqrstuv');
    expect(await screen.findByRole('heading', { name: 'Stringing from too little retraction' })).toBeInTheDocument();
    expect(screen.getByText('Most Likely')).toBeInTheDocument();
    expect(screen.queryByRole('checkbox')).not.toBeInTheDocument();
    expect(screen.getByText('Get Started for Free')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Share' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Sign Up' })).toHaveAttribute('href', '/login?mode=signup');
    expect(document.head.querySelector('meta[name="referrer"]')).toHaveAttribute('content', 'no-referrer');
  });

  it('says Guide Not Found for an unknown id', async () => {
    stubFetch({});
    renderGuide('doesnotexist0000000000');
    expect(await screen.findByText('Guide Not Found')).toBeInTheDocument();
    expect(screen.getByText("The troubleshooting guide you're looking for doesn't exist or has expired.")).toBeInTheDocument();
  });

  it('offers a retry when the guide cannot be loaded', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))));
    renderGuide('abcdefghijklmnopqrstuv');
    expect(await screen.findByText('Failed to load shared troubleshooting guide')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Try Again' })).toBeInTheDocument();
  });
});
