// App-wide toasts: at most one on screen; a new toast replaces the current one.
import { useCallback, useMemo, useState, type ReactNode } from 'react';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Snackbar from '@mui/material/Snackbar';
import { ToastContext, TOAST_DURATION_MS, type ToastOptions } from './context';

interface ShownToast extends ToastOptions {
  id: number;
}

let nextId = 1;

export function ToastProvider({ children }: { children: ReactNode }) {
  const [current, setCurrent] = useState<ShownToast | null>(null);
  const [open, setOpen] = useState(false);

  const toast = useCallback((options: ToastOptions) => {
    const id = nextId++;
    setCurrent({ ...options, id });
    setOpen(true);
    return id;
  }, []);

  const dismiss = useCallback(() => setOpen(false), []);
  const value = useMemo(() => ({ toast, dismiss }), [toast, dismiss]);

  const severity = current?.variant === 'destructive' ? 'error' : (current?.variant ?? 'info');

  return (
    <ToastContext.Provider value={value}>
      {children}
      <Snackbar
        key={current?.id}
        open={open && current !== null}
        autoHideDuration={current?.duration ?? TOAST_DURATION_MS}
        onClose={(_, reason) => {
          if (reason !== 'clickaway') setOpen(false);
        }}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
      >
        <Alert
          severity={severity === 'default' ? 'info' : severity}
          variant="filled"
          onClose={() => setOpen(false)}
          sx={{ width: '100%', maxWidth: 420 }}
          data-testid="toast"
        >
          {current?.title && <AlertTitle sx={{ mb: current.description ? 0.5 : 0 }}>{current.title}</AlertTitle>}
          {current?.description}
        </Alert>
      </Snackbar>
    </ToastContext.Provider>
  );
}
