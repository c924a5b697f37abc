import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, type Issue, type TroubleshootingResult } from '../../api/client';
import IssueResults from '../../pages/IssueResults';
import TroubleshootingResults from '../../pages/TroubleshootingResults';
import { testIssue } from '../../test/fixtures';
import { renderWithProviders, stubFetch } from '../../test/render';
import { showStoredResult, startAnalysis, WAITING_KEY } from './session';

const result: TroubleshootingResult = {
  summary: 'This looks like stringing from too little retraction.',
  steps: [
    { title: 'Tune retraction', description: 'Print a retraction test.', priority: 'high' },
    { title: 'Lower the nozzle temperature', description: 'Try 5 °C lower.', priority: 'medium' },
    { title: 'Dry the filament', description: 'Dry PETG at 65 °C.', priority: 'low' },
  ],
  additionalTips: ['Fine hairs come off with a heat gun.'],
};
const issue = { printerBrand: 'Ender 3', category: 'stringing', description: 'Hairs everywhere between parts.' };

function renderResults(path = '/troubleshooting-results') {
  return renderWithProviders(
    <Routes>
      <Route path="/troubleshooting-results" element={<TroubleshootingResults />} />
      <Route path="/issues/:id" element={<IssueResults />} />
      <Route path="/preview" element={<p>the form</p>} />
    </Routes>,
    { path },
  );
}

/** A saved issue (id 42) as GET /api/issues/42 answers it. */
function savedIssue(patch: Partial<Issue> = {}): Issue {
  return testIssue({
    id: 42,
    printerId: 7,
    diagnosedCategory: 'stringing',
    description: issue.description,
    aiChecklist: result,
    createdAt: '2026-03-01T10:00:00Z',
    printer: { name: 'Workshop', brand: 'Ender 3' },
    ...patch,
  });
}

beforeEach(() => {
  sessionStorage.clear();
  localStorage.clear();
});
afterEach(() => vi.unstubAllGlobals());

describe('results screen', () => {
  it('waits with the loading text, then shows the result the request delivers', async () => {
    let resolve!: (r: TroubleshootingResult) => void;
    startAnalysis(issue, () => new Promise((r) => (resolve = r)));
    renderResults();
    expect(screen.getByText('Analyzing your 3D printing issue...')).toBeInTheDocument();
    expect(screen.getByText('This may take up to 30 seconds')).toBeInTheDocument();
    await act(async () => resolve(result));
    expect(await screen.findByText('Issue Analysis', {}, { timeout: 2000 })).toBeInTheDocument();
    expect(sessionStorage.getItem(WAITING_KEY)).toBeNull();
    const steps = screen.getAllByTestId('solution-step');
    expect(steps.map((s) => within(s).getByTestId('priority-label').textContent)).toEqual([
      'Most Likely',
      'Worth Checking',
      'Less Common',
    ]);
    expect(screen.getByText('Additional Tips & Best Practices')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Sign Up to Save Results' })).toHaveAttribute('href', '/login?mode=signup');
    expect(screen.getByRole('link', { name: 'Submit Another Issue' })).toHaveAttribute('href', '/preview');
  });

  it('on failure clears the flag, shows the toast and returns to the form', async () => {
    const body = '{"error":{"code":"PUBLIC_USAGE_LIMIT_EXCEEDED","message":"Your free credits reset on December 1."}}';
    startAnalysis(issue, () => Promise.reject(new ApiError(429, 'Too Many Requests', body)));
    renderResults();
    expect(await screen.findByText('the form', {}, { timeout: 2000 })).toBeInTheDocument();
    expect(screen.getByText('Monthly Limit Reached')).toBeInTheDocument();
    expect(screen.getByText('Your free credits reset on December 1.')).toBeInTheDocument();
    expect(sessionStorage.getItem(WAITING_KEY)).toBeNull();
  });

  it('gives up after 120 s and returns to the form', async () => {
    startAnalysis(issue, () => new Promise(() => {}));
    sessionStorage.setItem(WAITING_KEY, JSON.stringify({ startedAt: Date.now() - 121_000 }));
    renderResults();
    expect(await screen.findByText('the form')).toBeInTheDocument();
    expect(sessionStorage.getItem(WAITING_KEY)).toBeNull();
  });

  it('keeps waiting before 120 s', async () => {
    startAnalysis(issue, () => new Promise(() => {}));
    sessionStorage.setItem(WAITING_KEY, JSON.stringify({ startedAt: Date.now() - 118_000 }));
    renderResults();
    await new Promise((r) => setTimeout(r, 700));
    expect(screen.getByText('Analyzing your 3D printing issue...')).toBeInTheDocument();
    expect(screen.queryByText('the form')).not.toBeInTheDocument();
  });

  it('remembers ticked steps for this result across visits', async () => {
    showStoredResult(result, issue);
    const user = userEvent.setup();
    const first = renderResults();
    const box = screen.getByRole('checkbox', { name: 'Dry the filament' });
    await user.click(box);
    expect(box).toBeChecked();
    first.unmount();
    renderResults();
    expect(screen.getByRole('checkbox', { name: 'Dry the filament' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'Tune retraction' })).not.toBeChecked();
    expect(screen.getByText('1/3 done')).toBeInTheDocument();
    // A ticked step stays readable: the maker may still be following it.
    const title = screen.getByText('Dry the filament', { selector: 'h3' });
    expect(getComputedStyle(title).textDecorationLine || getComputedStyle(title).textDecoration).not.toMatch(/line-through/);
  });

  it("a saved issue shows the ticks the server has, and stores a new tick on the server", async () => {
    // Ticked on the phone: the server has it, this browser's storage does not.
    const fetch = stubFetch({
      '/api/issues/42': savedIssue({ status: 'in-progress', checkedSteps: ['Lower the nozzle temperature'] }),
      '/api/issues/42/checked-steps': {},
    });
    const user = userEvent.setup();
    renderResults('/issues/42');
    expect(await screen.findByRole('checkbox', { name: 'Lower the nozzle temperature' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'Dry the filament' })).not.toBeChecked();
    await user.click(screen.getByRole('checkbox', { name: 'Dry the filament' }));
    await waitFor(() => expect(fetch.mock.calls.some(([url]) => String(url).endsWith('/api/issues/42/checked-steps'))).toBe(true));
    const call = fetch.mock.calls.find(([url]) => String(url).endsWith('/api/issues/42/checked-steps'))!;
    const init = (call as unknown[])[1] as RequestInit;
    expect(init.method).toBe('PUT');
    expect(JSON.parse(String(init.body))).toEqual({ checkedSteps: ['Lower the nozzle temperature', 'Dry the filament'] });
  });

  it('narrows an anonymous result down with an answer, free, keeping the ticks by title', async () => {
    const asked = { id: 'one-spool', text: 'Does it happen only with one spool or one brand of filament?' };
    const narrowed: TroubleshootingResult = {
      ...result,
      steps: [result.steps[2], result.steps[0], result.steps[1]],
      questions: [asked],
      answers: { 'one-spool': 'yes' },
    };
    const fetch = stubFetch({ '/api/troubleshoot/refine': narrowed });
    showStoredResult({ ...result, questions: [asked], refineToken: 'tok.abc' }, { ...issue, material: 'PETG', nozzleTemp: 240 });
    const user = userEvent.setup();
    renderResults();
    await user.click(screen.getByRole('checkbox', { name: 'Tune retraction' }));
    const region = screen.getByRole('region', { name: 'Narrow It Down' });
    expect(within(region).getByText(asked.text)).toBeInTheDocument();
    await user.click(within(region).getByRole('button', { name: 'Yes' }));
    await waitFor(() => expect(screen.getAllByTestId('solution-step')[0]).toHaveTextContent('Dry the filament'));
    const call = fetch.mock.calls.find(([url]) => String(url).endsWith('/api/troubleshoot/refine'))!;
    const sent = JSON.parse(String(((call as unknown[])[1] as RequestInit).body));
    expect(sent).toMatchObject({
      description: issue.description,
      printerBrand: 'Ender 3',
      material: 'PETG',
      nozzleTemp: 240,
      answers: { 'one-spool': 'yes' },
      refineToken: 'tok.abc',
      images: [],
    });
    // The tick stays on its step, now second.
    expect(screen.getByRole('checkbox', { name: 'Tune retraction' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'Dry the filament' })).not.toBeChecked();
    expect(within(region).getByRole('button', { name: 'Yes' })).toHaveAttribute('aria-pressed', 'true');
    // No credit was spent: only the refine call went out.
    expect(fetch.mock.calls.some(([url]) => String(url).endsWith('/api/troubleshoot'))).toBe(false);
  });

  it('says what an answer changed: a re-ordering, or nothing for "Not sure"', async () => {
    const asked = { id: 'better-when-enclosed', text: 'Does it get better when the printer is enclosed or away from drafts?' };
    const reordered: TroubleshootingResult = {
      ...result,
      steps: [result.steps[2], result.steps[0], result.steps[1]],
      questions: [asked],
      answers: { [asked.id]: 'yes' },
    };
    stubFetch({ '/api/troubleshoot/refine': reordered });
    showStoredResult({ ...result, questions: [asked], refineToken: 'tok.abc' }, issue);
    const user = userEvent.setup();
    renderResults();
    const region = screen.getByRole('region', { name: 'Narrow It Down' });
    expect(within(region).getByRole('button', { name: 'Not sure' })).toBeInTheDocument();
    await user.click(within(region).getByRole('button', { name: 'Yes' }));
    await waitFor(() =>
      expect(within(region).getByRole('status')).toHaveTextContent('The steps were re-ordered by your answer: “Dry the filament” is now the first step.'),
    );
    const moved = screen.getAllByTestId('solution-step').filter((s) => within(s).queryByTestId('moved-up'));
    expect(moved.map((s) => within(s).getByRole('heading').textContent)).toEqual(['Dry the filament']);

    // "Not sure" is sent as such and changes nothing: the card says so.
    const fetch = stubFetch({ '/api/troubleshoot/refine': { ...reordered, answers: { [asked.id]: 'unsure' } } });
    await user.click(within(region).getByRole('button', { name: 'Not sure' }));
    await waitFor(() => expect(within(region).getByRole('status')).toHaveTextContent('Your answer did not change the order of the steps.'));
    const sent = JSON.parse(String(((fetch.mock.calls[0] as unknown[])[1] as RequestInit).body));
    expect(sent.answers).toEqual({ [asked.id]: 'unsure' });
    expect(within(region).getByRole('button', { name: 'Not sure' })).toHaveAttribute('aria-pressed', 'true');
    expect(screen.queryByTestId('moved-up')).not.toBeInTheDocument();
  });

  it('opens at the top with the focus on the summary heading', async () => {
    const scrollTo = vi.fn();
    vi.stubGlobal('scrollTo', scrollTo);
    showStoredResult(result, issue);
    renderResults();
    expect(screen.getByRole('heading', { name: 'Issue Analysis' })).toHaveFocus();
    expect(scrollTo).toHaveBeenCalledWith(0, 0);
  });

  it('moves a saved analysis on to the issue\'s own address', async () => {
    stubFetch({ '/api/issues/42': savedIssue() });
    showStoredResult(result, { ...issue, id: 42, status: 'pending' });
    renderResults();
    expect(await screen.findByRole('heading', { name: 'Issue Analysis' })).toHaveFocus();
    expect(screen.getByRole('link', { name: 'All Issues' })).toHaveAttribute('href', '/issues');
  });

  it("another maker's issue, or one that does not exist, is the not-found screen", async () => {
    stubFetch({});
    renderResults('/issues/43');
    expect(await screen.findByRole('heading', { name: '404 Page Not Found' })).toBeInTheDocument();
  });

  it('shows the diagnosed category beside the one the maker left', async () => {
    stubFetch({ '/api/issues/42': savedIssue() });
    const user = userEvent.setup();
    renderResults('/issues/42');
    await user.click(await screen.findByRole('button', { name: 'Original Issue Details' }));
    expect(screen.getByText('Other / I Don\'t Know')).toBeInTheDocument();
    expect(screen.getByText('Diagnosed').nextSibling).toHaveTextContent('Stringing & Oozing');
  });

  it('names the engine or model that answered in a small caption', () => {
    for (const [answered, want] of [
      [{ engine: 'openai', model: 'qwen2.5vl:7b' }, 'Answered by qwen2.5vl:7b'],
      [{ engine: 'gemini', model: 'gemini-2.5-flash' }, 'Answered by Gemini (gemini-2.5-flash)'],
      [{ engine: 'built-in' }, 'Answered by the built-in engine'],
      [{ engine: 'fallback', model: 'llama3.2', fallbackFrom: 'openai' }, 'Answered by the built-in engine (llama3.2 did not answer)'],
    ] as const) {
      showStoredResult({ ...result, ...answered }, issue);
      const { unmount } = renderResults();
      expect(screen.getByTestId('answered-by')).toHaveTextContent(want);
      unmount();
    }
    showStoredResult(result, issue);
    renderResults();
    expect(screen.queryByTestId('answered-by')).toBeNull();
  });

  it('offers no questions on a result that cannot be narrowed down', () => {
    showStoredResult({ ...result, questions: [{ id: 'one-spool', text: 'Only one spool?' }] }, issue);
    renderResults();
    expect(screen.queryByRole('region', { name: 'Narrow It Down' })).not.toBeInTheDocument();
  });

  it('shows the original issue details on demand', async () => {
    showStoredResult(result, { ...issue, nozzleTemp: 245, photos: ['data:image/jpeg;base64,AAAA'] });
    const user = userEvent.setup();
    renderResults();
    await user.click(screen.getByRole('button', { name: 'Original Issue Details' }));
    expect(screen.getByText('245 °C')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Enlarge photo 1' }));
    await waitFor(() => expect(screen.getByRole('dialog')).toBeInTheDocument());
  });
});
