import { useState } from 'react';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { expect, test, vi } from 'vitest';
import { renderWithProviders } from '../../test/render';
import { AdditionalDetails } from './AdditionalDetails';
import { EMPTY_DETAILS } from './validation';

function renderDetails(props: { open?: boolean } = {}) {
  const onToggle = vi.fn();
  const set = vi.fn(() => vi.fn());
  renderWithProviders(
    <AdditionalDetails
      id="details"
      open={props.open ?? true}
      onToggle={onToggle}
      values={{ ...EMPTY_DETAILS, nozzleTemp: '215' }}
      errors={{ bedTemp: 'Bed temperature must be between 0 and 200 °C' }}
      set={set}
    />,
  );
  return { onToggle, set };
}

test('the numeric inputs carry their ranges, units and errors', () => {
  renderDetails();
  const ranges = [
    ['Nozzle Temperature', '0', '500', '1'],
    ['Bed Temperature', '0', '200', '1'],
    ['Layer Height', '0.05', '1', '0.05'],
    ['Print Speed', '1', '300', '1'],
    ['Infill', '0', '100', '1'],
  ];
  for (const [label, min, max, step] of ranges) {
    const input = screen.getByLabelText(label);
    expect([input.getAttribute('min'), input.getAttribute('max'), input.getAttribute('step')], label).toEqual([min, max, step]);
  }
  expect(screen.getByLabelText('Nozzle Temperature')).toHaveValue(215);
  expect(screen.getByLabelText('Bed Temperature')).toHaveAttribute('aria-invalid', 'true');
  expect(screen.getByText('Bed temperature must be between 0 and 200 °C')).toBeInTheDocument();
  expect(screen.getByText('mm/s')).toBeInTheDocument();
});

test('the toggle reports its state', () => {
  const { onToggle } = renderDetails({ open: false });
  const toggle = screen.getByRole('button', { name: 'Additional Details' });
  expect(toggle).toHaveAttribute('aria-expanded', 'false');
  expect(toggle).toHaveAttribute('aria-controls', 'details');
  fireEvent.click(toggle);
  expect(onToggle).toHaveBeenCalledOnce();
});

test('typing goes to the field', () => {
  const { set } = renderDetails();
  fireEvent.change(screen.getByLabelText('Material', { selector: 'input' }), { target: { value: 'PETG' } });
  expect(set).toHaveBeenCalledWith('material');
});

function Toggled() {
  const [open, setOpen] = useState(false);
  return <AdditionalDetails id="details" open={open} onToggle={() => setOpen((o) => !o)} values={EMPTY_DETAILS} errors={{}} set={() => () => {}} />;
}

test('closed, the panel holds no fields: they come when it opens and leave once it has closed', async () => {
  renderWithProviders(<Toggled />);
  const toggle = screen.getByRole('button', { name: 'Additional Details' });
  // The panel the toggle controls is there either way; only its fields come and go.
  expect(document.getElementById('details')).not.toBeNull();
  expect(document.querySelectorAll('#details input')).toHaveLength(0);
  fireEvent.click(toggle);
  expect(screen.getByLabelText('Material', { selector: 'input' })).toBeVisible();
  expect(document.querySelectorAll('#details input')).toHaveLength(6);
  fireEvent.click(toggle);
  await waitFor(() => expect(document.querySelectorAll('#details input')).toHaveLength(0));
  expect(document.getElementById('details')).not.toBeNull();
});
