import { fireEvent, screen } from '@testing-library/react';
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

test('the toggle reports its state and typing goes to the field', () => {
  const { onToggle, set } = renderDetails({ open: false });
  const toggle = screen.getByRole('button', { name: 'Additional Details' });
  expect(toggle).toHaveAttribute('aria-expanded', 'false');
  expect(toggle).toHaveAttribute('aria-controls', 'details');
  fireEvent.click(toggle);
  expect(onToggle).toHaveBeenCalledOnce();
  fireEvent.change(screen.getByLabelText('Material', { selector: 'input' }), { target: { value: 'PETG' } });
  expect(set).toHaveBeenCalledWith('material');
});
