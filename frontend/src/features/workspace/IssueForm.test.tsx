import { configure, fireEvent, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { testPrinter } from '../../test/fixtures';
import { renderWithProviders } from '../../test/render';
import { IssueForm } from './IssueForm';
import { EMPTY_ISSUE_FORM } from './issueValidation';

vi.setConfig({ testTimeout: 30_000 });
configure({ asyncUtilTimeout: 8000 });

const ender = testPrinter({ id: 3, name: 'Workshop Ender', brand: 'Creality' });
const mk4 = testPrinter({ id: 4, name: 'Bay 2', brand: 'Prusa' });

function renderForm(printers: (typeof ender)[]) {
  const onSubmit = vi.fn();
  renderWithProviders(
    <IssueForm initialValues={EMPTY_ISSUE_FORM} printers={printers} printersLoading={false} submitting={false} onSubmit={onSubmit} onCancel={() => {}} />,
  );
  return onSubmit;
}

// A maker with exactly one printer has it chosen on "New Issue".
describe('IssueForm printer', () => {
  it('preselects the only printer and submits it', () => {
    const onSubmit = renderForm([ender]);
    expect(screen.getByRole('combobox', { name: /Printer/ })).toHaveTextContent('Workshop Ender (Creality)');
    fireEvent.change(screen.getByLabelText(/Detailed Description/), { target: { value: 'Thin strings between the towers on every print' } });
    fireEvent.click(screen.getByRole('button', { name: 'Analyze Issue' }));
    expect(onSubmit).toHaveBeenCalledTimes(1);
    expect(onSubmit.mock.calls[0][0]).toMatchObject({ printerId: '3' });
  });

  it('with two printers the maker chooses', () => {
    const onSubmit = renderForm([ender, mk4]);
    expect(screen.getByRole('combobox', { name: /Printer/ })).not.toHaveTextContent('Workshop Ender');
    fireEvent.change(screen.getByLabelText(/Detailed Description/), { target: { value: 'Thin strings between the towers on every print' } });
    fireEvent.click(screen.getByRole('button', { name: 'Analyze Issue' }));
    expect(onSubmit).not.toHaveBeenCalled();
    expect(screen.getByText('Please select a printer')).toBeInTheDocument();
  });
});
