// Makers may type markup ("<b>60</b> mm/s", "<3"): it is accepted and must show as text on every
// page that displays it, never as HTML.
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import SharedGuide from '../../pages/SharedGuide';
import TroubleshootingResults from '../../pages/TroubleshootingResults';
import { testIssue } from '../../test/fixtures';
import { renderWithProviders, stubFetch } from '../../test/render';
import { IssueCard } from '../workspace/IssueCard';
import { showStoredResult } from './session';

const markup = 'Strings <img src=x onerror="window.hacked=1"><b>everywhere</b> at 210°C & 20%';

function noInjectedMarkup() {
  expect(document.querySelector('img[src="x"]')).toBeNull();
  expect(document.querySelector('b')).toBeNull();
  expect((window as unknown as { hacked?: number }).hacked).toBeUndefined();
}

beforeEach(() => {
  sessionStorage.clear();
  localStorage.clear();
});
afterEach(() => vi.unstubAllGlobals());

describe('markup in a description shows as text', () => {
  it('on the results screen', async () => {
    showStoredResult(
      { summary: `Your description mentions "${markup}".`, steps: [{ title: markup, description: markup, priority: 'high' }], additionalTips: [markup] },
      { printerBrand: '<i>Ender</i>', category: 'stringing', description: markup },
    );
    renderWithProviders(
      <Routes>
        <Route path="/troubleshooting-results" element={<TroubleshootingResults />} />
      </Routes>,
      { path: '/troubleshooting-results' },
    );
    await userEvent.setup().click(screen.getByRole('button', { name: 'Original Issue Details' }));
    const details = screen.getByRole('region', { name: 'Original Issue Details' });
    expect(within(details).getByText(markup)).toBeInTheDocument();
    expect(within(details).getByText('<i>Ender</i>')).toBeInTheDocument();
    expect(screen.getAllByText(markup).length).toBeGreaterThanOrEqual(3);
    noInjectedMarkup();
  });

  it('on the issues list', () => {
    renderWithProviders(<IssueCard issue={testIssue({ description: markup, workingRecommendations: [markup], status: 'resolved' })} onOpen={() => {}} />);
    expect(screen.getAllByText(markup, { exact: false }).length).toBeGreaterThanOrEqual(1);
    noInjectedMarkup();
  });

  it('on a shared guide', async () => {
    stubFetch({
      '/api/share/abcdefghijklmnopqrstuv': {
        shareId: 'abcdefghijklmnopqrstuv',
        title: markup,
        createdAt: '2026-11-21T10:00:00Z',
        troubleshootingData: { summary: markup, steps: [{ title: markup, description: markup, priority: 'high' }], additionalTips: [] },
      },
    });
    renderWithProviders(
      <Routes>
        <Route path="/share/:shareId" element={<SharedGuide />} />
      </Routes>,
      { path: '/share/abcdefghijklmnopqrstuv' },
    );
    expect(await screen.findByRole('heading', { level: 1, name: markup })).toBeInTheDocument();
    noInjectedMarkup();
  });
});
