import type { ReactNode } from 'react';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';

interface Props {
  open: boolean;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  cancelLabel?: string;
  /** Hides the confirm button (an explanation with only a close button). */
  infoOnly?: boolean;
  destructive?: boolean;
  busy?: boolean;
  onConfirm?: () => void;
  onClose: () => void;
}

/** A small confirmation dialog; it cannot be dismissed while its action runs. */
export function ConfirmDialog({
  open,
  title,
  children,
  confirmLabel,
  cancelLabel = 'Cancel',
  infoOnly = false,
  destructive = false,
  busy = false,
  onConfirm,
  onClose,
}: Props) {
  return (
    <Dialog open={open} onClose={busy ? undefined : onClose} maxWidth="xs" fullWidth aria-labelledby="confirm-dialog-title">
      <DialogTitle id="confirm-dialog-title">{title}</DialogTitle>
      <DialogContent>
        <DialogContentText component="div">{children}</DialogContentText>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2.5 }}>
        {infoOnly ? (
          <Button variant="contained" onClick={onClose} autoFocus>
            {confirmLabel}
          </Button>
        ) : (
          <>
            <Button onClick={onClose} disabled={busy} color="inherit">
              {cancelLabel}
            </Button>
            <Button
              variant="contained"
              color={destructive ? 'error' : 'primary'}
              onClick={onConfirm}
              disabled={busy}
              startIcon={busy ? <CircularProgress size={16} color="inherit" /> : undefined}
            >
              {confirmLabel}
            </Button>
          </>
        )}
      </DialogActions>
    </Dialog>
  );
}
