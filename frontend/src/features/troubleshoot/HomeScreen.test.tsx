import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes, useLocation } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AuthContext, signedOutState } from '../../auth/context';
import Home from '../../pages/Home';
import { renderWithProviders, stubFetch } from '../../test/render';
import orcaGcode from '../slicedfile/testdata/orca-ender3.gcode?raw';
import { rememberSharedIssue } from './sharedLocal';

// fill pastes the text in one event: typing key by key re-renders the whole form every time.
async function fill(user: ReturnType<typeof userEvent.setup>, field: HTMLElement | Promise<HTMLElement>, text: string) {
  await user.click(await field);
  await user.paste(text);
}

function renderHome(path = '/preview') {
  return renderWithProviders(
    <Routes>
      <Route path="/preview" element={<Home />} />
      <Route path="/troubleshooting-results" element={<p>results screen</p>} />
    </Routes>,
    { path },
  );
}

const result = { summary: 'Stringing.', steps: [], additionalTips: [] };

beforeEach(() => {
  sessionStorage.clear();
  localStorage.clear();
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('home screen', { timeout: 15_000 }, () => {
  it('replaces the form with the limit state at 3 of 3 and shows an amber badge', async () => {
    stubFetch({ '/api/public-usage': { currentUsage: 3 } });
    renderHome();
    expect(await screen.findByText("You've used all your free credits!")).toBeInTheDocument();
    const badge = screen.getByTestId('credits-badge');
    expect(badge).toHaveTextContent('3/3 free credits used');
    expect(badge.className).toMatch(/colorWarning/);
    expect(screen.getByRole('link', { name: 'Create Free Account' })).toHaveAttribute('href', '/login?mode=signup');
    expect(screen.getByRole('link', { name: 'View Pricing Plans' })).toHaveAttribute('href', '/pricing');
    expect(screen.getByText(/reset next month/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Analyze Issue' })).not.toBeInTheDocument();
  });

  it('shows the form at once while the allowance is still loading (the prerendered page stays put)', async () => {
    vi.stubGlobal('fetch', vi.fn(() => new Promise(() => {})));
    renderHome();
    expect(await screen.findByRole('button', { name: 'Analyze Issue' })).toBeInTheDocument();
    expect(screen.getByLabelText(/Detailed Description/)).toBeInTheDocument();
    expect(screen.queryByTestId('credits-badge')).not.toBeInTheDocument();
  });

  it('shows the form below the limit, with other preselected and a plain badge', async () => {
    stubFetch({ '/api/public-usage': { currentUsage: 1 } });
    renderHome();
    const badge = await screen.findByTestId('credits-badge');
    expect(badge).toHaveTextContent('1/3 free credits used');
    expect(badge.className).not.toMatch(/colorWarning/);
    expect(screen.getByRole('link', { name: 'Get More' })).toHaveAttribute('href', '/pricing');
    expect(screen.getAllByRole('radio')).toHaveLength(10);
    expect(screen.getByRole('radio', { name: "Other / I Don't Know" })).toHaveAttribute('aria-checked', 'true');
    expect(screen.getByText('PNG, JPG up to 10MB each')).toBeInTheDocument();
  });

  it('shows the spec messages and sends nothing when the form is invalid', async () => {
    const fetch = stubFetch({ '/api/public-usage': { currentUsage: 0 } });
    renderHome();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Analyze Issue' }));
    expect(screen.getByText('Please enter your printer brand')).toBeInTheDocument();
    expect(screen.getByText('Please provide a detailed description (at least 10 characters)')).toBeInTheDocument();
    await fill(user, screen.getByLabelText(/Printer Brand\/Model/), 'Ender 3');
    await fill(user, screen.getByLabelText(/Detailed Description/), 'Strings everywhere between parts.');
    await user.click(screen.getByRole('button', { name: 'Additional Details' }));
    await fill(user, screen.getByLabelText('Nozzle Temperature'), '600');
    await user.click(screen.getByRole('button', { name: 'Analyze Issue' }));
    expect(screen.getByText('Nozzle temperature must be between 0 and 500 °C')).toBeInTheDocument();
    expect(fetch.mock.calls.some(([url]) => String(url).includes('/api/troubleshoot'))).toBe(false);
  });

  it('goes to the results screen at once and sends the analysis payload', async () => {
    const fetch = stubFetch({ '/api/public-usage': { currentUsage: 0 }, '/api/troubleshoot': result });
    renderHome();
    const user = userEvent.setup();
    await fill(user, await screen.findByLabelText(/Printer Brand\/Model/), ' Bambu Lab P1S ');
    await user.click(screen.getByRole('radio', { name: 'Stringing & Oozing' }));
    await fill(user, screen.getByLabelText(/Detailed Description/), 'Fine hairs between the towers.');
    await user.click(screen.getByRole('button', { name: 'Additional Details' }));
    await fill(user, screen.getByLabelText('Material'), 'PETG');
    await fill(user, screen.getByLabelText('Layer Height'), '0.16');
    await user.click(screen.getByRole('button', { name: 'Analyze Issue' }));
    expect(await screen.findByText('results screen')).toBeInTheDocument();
    await waitFor(() => expect(sessionStorage.getItem('troubleshootingResults')).not.toBeNull());
    const call = fetch.mock.calls.find(([url]) => String(url).endsWith('/api/troubleshoot'));
    expect(call).toBeDefined();
    const init = (call as unknown[])[1] as RequestInit;
    expect(init.method).toBe('POST');
    expect(JSON.parse(String(init.body))).toEqual({
      category: 'stringing',
      description: 'Fine hairs between the towers.',
      material: 'PETG',
      nozzleTemp: null,
      bedTemp: null,
      layerHeight: 0.16,
      printSpeed: null,
      infill: null,
      printerBrand: 'Bambu Lab P1S',
      images: [],
      screenDimensions: { width: expect.any(Number), height: expect.any(Number) },
    });
  });

  it('reads the settings from a sliced file, fills the form and sends the extra settings', async () => {
    const fetch = stubFetch({ '/api/public-usage': { currentUsage: 0 }, '/api/troubleshoot': result });
    renderHome();
    const user = userEvent.setup();
    await screen.findByLabelText(/Printer Brand\/Model/);
    await user.upload(screen.getByTestId('sliced-file-input'), new File([orcaGcode], 'benchy.gcode'));
    const read = await screen.findByTestId('sliced-settings');
    expect(read).toHaveTextContent('benchy.gcode (OrcaSlicer)');
    expect(read).toHaveTextContent('Retraction 0.8 mm');
    expect(screen.getByLabelText('Nozzle Temperature')).toHaveValue(205);
    expect(screen.getByLabelText(/Printer Brand\/Model/)).toHaveValue('Creality Ender-3 V2');
    await fill(user, screen.getByLabelText(/Detailed Description/), 'Fine hairs between the towers.');
    await user.click(screen.getByRole('button', { name: 'Analyze Issue' }));
    await waitFor(() => expect(fetch.mock.calls.some(([url]) => String(url).endsWith('/api/troubleshoot'))).toBe(true));
    const call = fetch.mock.calls.find(([url]) => String(url).endsWith('/api/troubleshoot'))!;
    const sent = JSON.parse(String(((call as unknown[])[1] as RequestInit).body));
    expect(sent).toMatchObject({ nozzleTemp: 205, bedTemp: 60, infill: 20, material: 'PLA' });
    expect(sent.slicerSettings).toMatchObject({ slicer: 'OrcaSlicer', retractionLength: 0.8, retractionSpeed: 40, pressureAdvance: 0 });
  });

  it('sends the attached logs and configs with the analysis and keeps them for the results', async () => {
    const fetch = stubFetch({ '/api/public-usage': { currentUsage: 0 }, '/api/troubleshoot': result });
    renderHome();
    const user = userEvent.setup();
    await fill(user, screen.getByLabelText(/Printer Brand\/Model/), 'Voron 2.4');
    await user.click(screen.getByRole('radio', { name: 'Temperature & Heating' }));
    await fill(user, screen.getByLabelText(/Detailed Description/), 'The printer halts with a heater error.');
    const log = "Starting Klippy...\nTransition to shutdown state: MCU 'mcu' shutdown: ADC out of range\n";
    await user.upload(screen.getByTestId('attach-input'), new File([log], 'klippy.log'));
    await screen.findByText(/klippy\.log · \d+ B · Klipper log/);
    await user.click(screen.getByRole('button', { name: 'Analyze Issue' }));
    await waitFor(() => expect(fetch.mock.calls.some(([url]) => String(url).endsWith('/api/troubleshoot'))).toBe(true));
    const call = fetch.mock.calls.find(([url]) => String(url).endsWith('/api/troubleshoot'))!;
    const sent = JSON.parse(String(((call as unknown[])[1] as RequestInit).body));
    expect(sent.attachments).toEqual([{ name: 'klippy.log', text: log }]);
    // The results screen (and a refine) get them from the stored issue.
    expect(JSON.parse(sessionStorage.getItem('currentIssue') ?? '{}').attachments).toEqual([{ name: 'klippy.log', text: log }]);
  });

  it('loads a locally stored shared issue from the share parameter', async () => {
    stubFetch({ '/api/public-usage': { currentUsage: 0 } });
    rememberSharedIssue('abc123', {
      printerBrand: 'Prusa MK4',
      category: 'bed-adhesion',
      description: 'Corners lift after ten layers.',
      material: 'ASA',
      bedTemp: 100,
    });
    renderHome('/preview?share=abc123');
    expect(await screen.findByLabelText(/Printer Brand\/Model/)).toHaveValue('Prusa MK4');
    expect(screen.getByLabelText(/Detailed Description/)).toHaveValue('Corners lift after ten layers.');
    expect(screen.getByRole('radio', { name: 'Bed Adhesion & Warping' })).toHaveAttribute('aria-checked', 'true');
    expect(screen.getByLabelText('Bed Temperature')).toHaveValue(100);
  });
});

describe('home screen for a signed-in maker', { timeout: 15_000 }, () => {
  const maker = {
    ...signedOutState,
    user: { id: 9, firebaseUid: null, email: 'farm@example.com', displayName: 'Farm', subscriptionStatus: 'active', subscriptionTier: 'farm' as const, monthlyUsage: 0 },
    firebaseUser: { uid: '9' },
    token: 'tok',
  };
  function renderSignedIn(path: string) {
    return renderWithProviders(
      <AuthContext.Provider value={maker}>
        <Routes>
          <Route path="/" element={<Home />} />
          <Route path="/preview" element={<Home />} />
          <Route path="/report-issue" element={<ReportIssueProbe />} />
        </Routes>
      </AuthContext.Provider>,
      { path },
    );
  }

  it.each(['/', '/preview'])('sends %s to the maker’s own issue form, never the anonymous quota', async (path) => {
    const fetch = stubFetch({ '/api/public-usage': { currentUsage: 3 } });
    renderSignedIn(path);
    expect(await screen.findByText('report issue form')).toBeInTheDocument();
    expect(screen.queryByText("You've used all your free credits!")).not.toBeInTheDocument();
    expect(fetch.mock.calls.some(([url]) => String(url).includes('/api/public-usage'))).toBe(false);
  });

  it('keeps a shared issue to load into the form', async () => {
    stubFetch({});
    renderSignedIn('/?share=abc123');
    expect(await screen.findByText('report issue form ?share=abc123')).toBeInTheDocument();
  });
});

function ReportIssueProbe() {
  const { search } = useLocation();
  return <p>{`report issue form${search ? ' ' + search : ''}`}</p>;
}
