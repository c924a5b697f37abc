import { useEffect, useRef } from 'react';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import type { ToastText } from '../troubleshoot/errors';

// FormFailure says, beside the button that was pressed, why the last analysis did not happen. It
// takes the focus when it appears, so it is read out and scrolled into view.
export function FormFailure({ failure }: { failure: ToastText }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    ref.current?.focus();
  }, [failure]);
  return (
    <Alert ref={ref} severity="error" role="alert" tabIndex={-1} data-testid="form-failure" sx={{ outline: 'none' }}>
      <AlertTitle>{failure.title}</AlertTitle>
      {failure.description}
    </Alert>
  );
}
